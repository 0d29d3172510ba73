"""Twig 3's template grammar (Twig\\Parser::subparse and the core token parsers, ported): text,
`{{ … }}` and the tags with their bodies and end tags, plus the checks Twig makes after parsing
(a child template's content outside blocks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from flowdrop_lsp.core.expressions.base import Binding, ProblemKind, SymbolKind, SymbolUse
from flowdrop_lsp.core.expressions.twig.expressions import ExpressionParser, Node, TwigSyntaxError
from flowdrop_lsp.core.expressions.twig.lexer import T, Token

# Words that only close or split another tag's body: a stray one is a syntax error, not an
# unknown tag.
END_WORDS = frozenset(
    [
        "else",
        "elseif",
        "endif",
        "endfor",
        "endset",
        "endblock",
        "endembed",
        "endmacro",
        "endwith",
        "endapply",
        "endautoescape",
        "endverbatim",
        "endguard",
        "endtrans",
        "plural",
        "endsandbox",
        "endspaceless",
        "endcache",
    ]
)
_BLANK = " \t\n\r\x0b\x0c"  # PHP's ctype_space


@dataclass
class Body:
    """A node of the template's body, as far as Twig's check of child templates sees it."""

    kind: str  # "text", "print", "include", "blockref", "capture", "plain", "nested"
    start: int
    children: list[Body] = field(default_factory=list)
    blank: bool = False


class TemplateParser(ExpressionParser):
    def parse_template(self, body: list[Body] | None = None) -> None:
        """The whole template; or, given the `body` parsed so far at its top level (the parser
        put back in the state it had there: twig/checkpoint.py), the rest of it."""
        if body is None:
            self.blocks: dict[str, tuple[int, int]] = {}  # a block name → where it is defined
            body = []
        self.subparse(None, None, into=body)
        self.check_child_template(body)

    def at_top_level(self, body: list[Body]) -> None:
        """Called before each node of the template's top level (`body`: those before it);
        twig/checkpoint.py keeps the parser's state there."""

    # -- bodies -------------------------------------------------------------------------------

    def subparse(
        self,
        ends: tuple[str, ...] | None,
        owner: Token | None,
        drop_needle: bool = False,
        into: list[Body] | None = None,
    ) -> tuple[list[Body], Token | None]:
        """The body up to a tag named in `ends` (returned, and consumed with `drop_needle`), or
        to the end of the template (None), added to `into` when given."""
        nodes: list[Body] = [] if into is None else into
        while self.current.type is not T.EOF:
            if ends is None:
                self.at_top_level(nodes)
            token = self.current
            if token.type is T.TEXT:
                self.next()
                nodes.append(Body("text", token.start, blank=not token.value.strip(_BLANK)))
            elif token.type is T.VAR_START:
                self.next()
                self.parse_expression()
                self.expect(T.VAR_END)
                nodes.append(Body("print", token.start))
            elif token.type is T.BLOCK_START:
                self.next()
                name = self.current
                if name.type is not T.NAME:
                    raise self.fail("A block must start with a tag name.", name)
                if ends is not None and name.value in ends:
                    if drop_needle:
                        self.next()
                    return nodes, name
                parse_tag = self.tag_parser(name.value)
                if parse_tag is None:
                    raise self.unknown_tag(name, ends, owner)
                self.next()
                self.facts.symbols.append(
                    SymbolUse(SymbolKind.TAG, name.value, name.start, name.end)
                )
                node = parse_tag(name)
                if node is not None:
                    nodes.append(node)
            else:
                raise self.fail("Lexer or parser ended up in unsupported state.", token)
        if ends is not None and owner is not None:
            # Twig fails at the end of the template ("Unexpected end of template"); what is to
            # mend is the tag left open, so the problem is placed on it (where Twig reports it
            # is kept as `engine_at`). No line in the message: a line
            # of the template is no line of the file the person reads.
            raise TwigSyntaxError(
                f'Unexpected end of template: this "{owner.value}" tag is not closed (by '
                f'"{ends[-1]}" before the template ends).',
                owner.start,
                owner.end,
                engine_at=self.end_point(),
            )
        return nodes, None

    def unknown_tag(
        self, name: Token, ends: tuple[str, ...] | None, owner: Token | None
    ) -> TwigSyntaxError:
        related: tuple[tuple[int, int, str], ...] = ()
        if ends is not None and owner is not None:
            message = (
                f'Unexpected "{name.value}" tag (expecting the closing tag of the '
                f'"{owner.value}" tag opened before it).'
            )
            related = ((owner.start, owner.end, f'the "{owner.value}" tag opened here'),)
        else:
            message = f'Unknown "{name.value}" tag.'
        error = self.fail(message, name)
        error.related = related
        if name.value not in END_WORDS:
            error.kind = ProblemKind.UNKNOWN_TAG
            error.name = name.value
            self.facts.symbols.append(SymbolUse(SymbolKind.TAG, name.value, name.start, name.end))
        return error

    def end_of_tag(self) -> int:
        return self.expect(T.BLOCK_END).end

    def next_tag_name(self) -> Token:
        """The tag that ended a body (Twig's `$stream->next()` after subparse)."""
        return self.next()

    def tag_parser(self, name: str) -> Callable[[Token], Body | None] | None:
        if name not in self.vocabulary.tags:
            return None
        return getattr(self, f"tag_{name}", self.tag_unknown_grammar)

    def check_child_template(self, body: list[Body]) -> None:
        """Twig's Parser::filterBodyNodes: a template that extends another outputs nothing
        outside its blocks, and defines no block under an `if` or a `for`."""
        if not self.has_parent:
            return
        self.check_child_nodes(body, nested=False)

    def check_child_nodes(self, nodes: list[Body], nested: bool) -> None:
        for node in nodes:
            if node.kind == "text" and not node.blank or node.kind in ("print", "include"):
                raise TwigSyntaxError(
                    "A template that extends another one cannot include content outside Twig "
                    "blocks. Did you forget to put the content inside a {% block %} tag?",
                    node.start,
                    node.start,
                )
            if node.kind == "capture":
                continue
            if nested and node.kind == "blockref":
                raise TwigSyntaxError(
                    "A block definition cannot be nested under non-capturing nodes.",
                    node.start,
                    node.start,
                )
            self.check_child_nodes(node.children, nested or node.kind == "nested")

    # -- scoping helpers ----------------------------------------------------------------------

    def bind_locally(self, tokens: list[tuple[str, Token]], kind: str, start: int) -> int:
        """Names bound only inside a body that starts at `start`; returns how many to pop."""
        for name, token in tokens:
            self.facts.bindings.append(Binding(name, token.start, token.end, kind, start, start))
            self.arrow_params.append(name)
        return len(tokens)

    def unbind_locally(self, count: int, end: int) -> None:
        del self.arrow_params[len(self.arrow_params) - count :]
        bindings = self.facts.bindings
        for index in range(len(bindings) - 1, -1, -1):
            binding = bindings[index]
            if count == 0:
                break
            if binding.visible_to == binding.visible_from and binding.kind != "arrow":
                bindings[index] = Binding(
                    binding.name,
                    binding.start,
                    binding.end,
                    binding.kind,
                    binding.visible_from,
                    end,
                )
                count -= 1

    # -- the core tags ------------------------------------------------------------------------

    def tag_if(self, token: Token) -> Body:
        children: list[Body] = []
        self.parse_expression()
        self.end_of_tag()
        body, _ = self.subparse(("elseif", "else", "endif"), token)
        children += body
        while True:
            word = self.next_tag_name()
            if word.value == "else":
                self.end_of_tag()
                body, _ = self.subparse(("endif",), token)
                children += body
            elif word.value == "elseif":
                self.parse_expression()
                self.end_of_tag()
                body, _ = self.subparse(("elseif", "else", "endif"), token)
                children += body
            elif word.value == "endif":
                break
            else:
                error = self.fail(
                    'Unexpected end of template. Twig was looking for the following tags "else", '
                    '"elseif", or "endif" to close the "if" block opened before it.',
                    self.current,
                )
                error.related = ((token.start, token.end, 'the "if" block opened here'),)
                raise error
        self.end_of_tag()
        return Body("nested", token.start, children)

    def tag_for(self, token: Token) -> Body:
        targets = self.parse_assignment()
        self.expect(T.OPERATOR, "in")
        self.parse_expression()
        body_start = self.end_of_tag()
        names = [(target.value, target) for target in targets[:2]]
        count = self.bind_locally([*names, ("loop", token)], "for", body_start)
        body, _ = self.subparse(("else", "endfor"), token)
        self.unbind_locally(count, self.current.start)
        if self.next_tag_name().value == "else":
            self.end_of_tag()
            more, _ = self.subparse(("endfor",), token, drop_needle=True)
            body += more
        self.end_of_tag()
        return Body("nested", token.start, body)

    def tag_set(self, token: Token) -> Body:
        names = self.parse_assignment()
        if self.next_if(T.OPERATOR, "="):
            values = self.parse_multitarget()
            visible_from = self.end_of_tag()
            if len(names) != len(values):
                raise self.fail(
                    "When using set, you must have the same number of variables and assignments.",
                    self.current,
                )
        else:
            if len(names) > 1:
                raise self.fail(
                    "When using set with a block, you cannot have a multi-target.", self.current
                )
            self.end_of_tag()
            self.subparse(("endset",), token, drop_needle=True)
            visible_from = self.end_of_tag()
        for name in names:
            self.bind(name.value, name, "set", visible_from, len(self.source))
        return Body("capture", token.start)

    def tag_block(self, token: Token) -> Body:
        name = self.expect(T.NAME)
        if name.value in self.blocks:
            first = self.blocks[name.value]
            error = self.fail(f"The block '{name.value}' has already been defined.", self.current)
            error.related = ((first[0], first[1], f"the block '{name.value}' defined first here"),)
            raise error
        self.blocks[name.value] = (name.start, name.end)
        self.block_stack.append(name.value)
        if self.next_if(T.BLOCK_END):
            self.subparse(("endblock",), token, drop_needle=True)
            if (end_name := self.next_if(T.NAME)) and end_name.value != name.value:
                raise self.fail(
                    f'Expected endblock for block "{name.value}" (but "{end_name.value}" given).',
                    self.current,
                )
        else:
            self.parse_expression()
        self.end_of_tag()
        self.block_stack.pop()
        return Body("blockref", token.start)

    def tag_extends(self, token: Token) -> Body | None:
        if self.block_stack:
            raise self.fail('Cannot use "extend" in a block.', token)
        if self.macro_depth:
            raise self.fail('Cannot use "extend" in a macro.', token)
        if self.has_parent:
            raise self.fail("Multiple extends tags are forbidden.", token)
        self.parse_expression()
        self.has_parent = True
        self.end_of_tag()
        return None

    def include_arguments(self) -> None:
        if self.next_if(T.NAME, "ignore"):
            self.expect(T.NAME, "missing")
        if self.next_if(T.NAME, "with"):
            self.parse_expression()
        self.next_if(T.NAME, "only")
        self.end_of_tag()

    def tag_include(self, token: Token) -> Body:
        self.parse_expression()
        self.include_arguments()
        return Body("include", token.start)

    def tag_embed(self, token: Token) -> Body:
        self.parse_expression()
        self.include_arguments()
        # The body is a child template of its own (Twig parses it with a fresh parser state).
        saved = (self.blocks, self.block_stack, self.has_parent, self.has_traits)
        saved_depth = self.macro_depth
        self.blocks, self.block_stack, self.has_parent, self.has_traits = {}, [], True, False
        self.macro_depth = 0
        body, _ = self.subparse(("endembed",), token, drop_needle=True)
        self.check_child_template(body)
        self.blocks, self.block_stack, self.has_parent, self.has_traits = saved
        self.macro_depth = saved_depth
        self.end_of_tag()
        return Body("include", token.start)

    def tag_macro(self, token: Token) -> None:
        name = self.expect(T.NAME)
        self.definition_names = []
        self.parse_arguments(named=True, definition=True)
        arguments = [(argument.value, argument) for argument in self.definition_names]
        body_start = self.end_of_tag()
        count = self.bind_locally([*arguments, ("varargs", name)], "macro", body_start)
        self.macro_depth += 1
        first_binding = len(self.facts.bindings)
        self.subparse(("endmacro",), token, drop_needle=True)
        body_end = self.look(-2).start if self.look(-1).type is T.NAME else self.current.start
        self.macro_depth -= 1
        if (end_name := self.next_if(T.NAME)) and end_name.value != name.value:
            raise self.fail(
                f'Expected endmacro for macro "{name.value}" (but "{end_name.value}" given).',
                self.current,
            )
        self.unbind_locally(count, body_end)
        # What the body sets is the macro's own.
        for index in range(first_binding, len(self.facts.bindings)):
            binding = self.facts.bindings[index]
            if binding.visible_to == len(self.source):
                self.facts.bindings[index] = Binding(
                    binding.name,
                    binding.start,
                    binding.end,
                    binding.kind,
                    binding.visible_from,
                    body_end,
                )
        self.end_of_tag()
        return None

    def tag_import(self, token: Token) -> Body:
        self.parse_expression()
        self.expect(T.NAME, "as")
        alias = self.expect(T.NAME)
        visible_from = self.end_of_tag()
        self.imported_templates.add(alias.value)
        self.bind(alias.value, alias, "import", visible_from, len(self.source))
        return Body("plain", token.start)

    def tag_from(self, token: Token) -> Body:
        self.parse_expression()
        self.expect(T.NAME, "import")
        aliases = []
        while True:
            alias = self.expect(T.NAME)
            if self.next_if(T.NAME, "as"):
                alias = self.expect(T.NAME)
            aliases.append(alias)
            if not self.next_if(T.PUNCTUATION, ","):
                break
        visible_from = self.end_of_tag()
        for alias in aliases:
            self.imported_functions.add(alias.value)
            self.bind(alias.value, alias, "import", visible_from, len(self.source))
        return Body("plain", token.start)

    def tag_with(self, token: Token) -> Body:
        keys: list[tuple[str, Token]] = []
        if not self.test(T.BLOCK_END):
            first_key_at = len(self.hash_keys)
            variables = self.parse_expression()
            if variables.kind == "array":
                keys = [(key.value, key) for key in self.hash_keys[first_key_at:]]
            self.next_if(T.NAME, "only")
        body_start = self.end_of_tag()
        count = self.bind_locally(keys, "with", body_start)
        body, _ = self.subparse(("endwith",), token, drop_needle=True)
        self.unbind_locally(count, self.look(-2).start)
        self.end_of_tag()
        return Body("nested", token.start, body)

    def tag_apply(self, token: Token) -> Body:
        self.parse_filters(Node("other", token.start, token.end))
        self.end_of_tag()
        self.subparse(("endapply",), token, drop_needle=True)
        self.end_of_tag()
        return Body(
            "plain", token.start, [Body("capture", token.start), Body("print", token.start)]
        )

    def tag_autoescape(self, token: Token) -> Body:
        if not self.test(T.BLOCK_END):
            strategy = self.parse_expression()
            if strategy.kind != "const":
                raise self.fail("An escaping strategy must be a string or false.", self.current)
        self.end_of_tag()
        body, _ = self.subparse(("endautoescape",), token, drop_needle=True)
        self.end_of_tag()
        return Body("nested", token.start, body)

    def tag_do(self, token: Token) -> Body:
        self.parse_expression()
        self.end_of_tag()
        return Body("nested", token.start)

    tag_deprecated = tag_do

    def tag_flush(self, token: Token) -> Body:
        self.end_of_tag()
        return Body("nested", token.start)

    def tag_use(self, token: Token) -> None:
        template = self.parse_expression()
        if template.kind != "const":
            raise self.fail(
                'The template references in a "use" statement must be a string.', self.current
            )
        if self.next_if(T.NAME, "with"):
            while True:
                self.expect(T.NAME)
                if self.next_if(T.NAME, "as"):
                    self.expect(T.NAME)
                if not self.next_if(T.PUNCTUATION, ","):
                    break
        self.end_of_tag()
        self.has_traits = True
        return None

    # -- tags of later Twig versions and of Drupal ----------------------------------------------

    def tag_guard(self, token: Token) -> Body:
        """Twig 3.15: `{% guard function name %}…{% else %}…{% endguard %}`."""
        self.expect(T.NAME)
        self.expect(T.NAME)
        self.next_if(T.NAME)  # a two-word test
        self.end_of_tag()
        body, _ = self.subparse(("else", "endguard"), token)
        if self.next_tag_name().value == "else":
            self.end_of_tag()
            more, _ = self.subparse(("endguard",), token, drop_needle=True)
            body += more
        self.end_of_tag()
        return Body("nested", token.start, body)

    def tag_trans(self, token: Token) -> Body:
        """Drupal's TwigTransTokenParser: `{% trans %}…{% plural n %}…{% endtrans %}`."""
        has_body = False
        if self.test(T.STRING):
            self.parse_expression()
            has_body = True
        if self.next_if(T.NAME, "with"):
            self.parse_expression()
        if not has_body:
            self.end_of_tag()
            self.subparse(("plural", "endtrans"), token)
            if self.next_tag_name().value == "plural":
                self.parse_expression()
                self.end_of_tag()
                self.subparse(("endtrans",), token, drop_needle=True)
        self.end_of_tag()
        return Body("print", token.start)

    def tag_sandbox(self, token: Token) -> Body:
        """Twig's SandboxTokenParser (Drupal's environment adds the sandbox extension): a body
        of `include` tags, blank text between them. A body of one node is Twig's node itself,
        whose children it checks instead: one text (any text) passes, one print fails."""
        self.end_of_tag()
        body, _ = self.subparse(("endsandbox",), token, drop_needle=True)
        self.end_of_tag()
        if len(body) == 1 and body[0].kind == "text":
            return Body("nested", token.start, body)
        for node in body:
            if node.kind != "include" and not (node.kind == "text" and node.blank):
                raise TwigSyntaxError(
                    'Only "include" tags are allowed within a "sandbox" section.',
                    node.start,
                    node.start,
                )
        return Body("nested", token.start, body)

    def tag_unknown_grammar(self, token: Token) -> Body:
        """A tag the caller's vocabulary adds whose grammar is not known here: its tokens up to
        `%}`, no body."""
        while not self.test(T.BLOCK_END) and self.current.type is not T.EOF:
            self.next()
        self.end_of_tag()
        return Body("plain", token.start)
