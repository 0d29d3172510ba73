"""Twig 3's expression grammar (Twig\\ExpressionParser, ported): operators with Twig's
precedence, literals, arrays and hashes, arrow functions, attribute access, filters, function
calls and tests; while parsing it records what the template reads, calls and binds."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flowdrop_lsp.core.expressions.base import Binding, Problem, ProblemKind, SymbolKind, SymbolUse
from flowdrop_lsp.core.expressions.twig.lexer import NAME_PATTERN, T, Token, Tokens
from flowdrop_lsp.core.expressions.twig.vocabulary import TwigVocabulary

_NAME_START = re.compile(NAME_PATTERN)
_NAME_WHOLE = re.compile(NAME_PATTERN + r"\Z")

UNARY = {"not": 50, "-": 500, "+": 500}
# Binary operators: precedence and whether they are right-associative.
BINARY: dict[str, tuple[int, bool]] = {
    "or": (10, False),
    "and": (15, False),
    "b-or": (16, False),
    "b-xor": (17, False),
    "b-and": (18, False),
    **dict.fromkeys(
        ["==", "!=", "<=>", "<", ">", ">=", "<=", "not in", "in", "matches"], (20, False)
    ),
    **dict.fromkeys(["starts with", "ends with", "has some", "has every"], (20, False)),
    "..": (25, False),
    "+": (30, False),
    "-": (30, False),
    "~": (40, False),
    **dict.fromkeys(["*", "/", "//", "%"], (60, False)),
    "is": (100, False),
    "is not": (100, False),
    "**": (200, True),
    "??": (300, True),
}
# Tests whose one argument may follow without parentheses (`is divisible by 3`).
ONE_ARGUMENT_TESTS = frozenset({"same as", "divisible by"})
# Functions Twig 3.5's parser handles itself (3.15 registers them).
PARSER_FUNCTIONS = frozenset({"parent", "block", "attribute"})
# Variables every template has: never reads of the caller's context.
GLOBALS = frozenset({"_self", "_context", "_charset"})


class TwigSyntaxError(Exception):
    def __init__(
        self,
        message: str,
        start: int,
        end: int,
        line_at: int | None = None,
        engine_at: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.line_at = start if line_at is None else line_at
        # Where Twig reports it when the problem is placed elsewhere (`Problem.engine_at`).
        self.engine_at = engine_at
        self.related: tuple[tuple[int, int, str], ...] = ()  # (`Problem.related`)
        self.kind = ProblemKind.SYNTAX
        self.name: str | None = None


@dataclass(frozen=True, slots=True)
class Node:
    """What the grammar needs to know of a parsed expression (Twig checks node classes)."""

    kind: str  # "name", "const", "array", "getattr", "unary", "other"
    start: int
    end: int
    name: str | None = None  # "name": the variable; "getattr": its root variable, if any
    children: tuple[Node, ...] = ()


@dataclass
class Facts:
    """What parsing found so far."""

    problems: list[Problem] = field(default_factory=list)
    reads: list[tuple[str, int, int]] = field(default_factory=list)
    guarded: set[str] = field(default_factory=set)
    symbols: list[SymbolUse] = field(default_factory=list)
    bindings: list[Binding] = field(default_factory=list)


def english(token: Token) -> str:
    return token.type.value


class ExpressionParser:
    def __init__(self, source: str, tokens: Tokens, vocabulary: TwigVocabulary) -> None:
        self.source = source
        self.tokens = tokens
        self.at = 0
        self.vocabulary = vocabulary
        self.facts = Facts()
        # Names bound so far anywhere (a read after one is not reported: conservative).
        self.bound: set[str] = set()
        # Arrow-function parameters of the arrows being parsed: bound only inside them.
        self.arrow_params: list[str] = []
        self.imported_functions: set[str] = set()
        self.imported_templates: set[str] = set()
        self.block_stack: list[str] = []
        self.has_parent = False
        self.has_traits = False
        # Names a macro definition declares (parse_arguments with definition=True fills it).
        self.definition_names: list[Token] = []
        # Every hash key written as a name or string, in order (`with` binds a literal's keys).
        self.hash_keys: list[Token] = []
        self.macro_depth = 0

    # -- the token stream -------------------------------------------------------------------

    @property
    def current(self) -> Token:
        return self.tokens[self.at]

    def look(self, ahead: int) -> Token:
        index = self.at + ahead
        return self.tokens[index] if index < len(self.tokens) else self.tokens[-1]

    def end_point(self) -> int:
        """Where "Unexpected end of template" points: the end, or where the template's closing
        text starts (Twig counts its lines no further: its end token is on that line)."""
        end = self.tokens[-1].start
        if len(self.tokens) > 1 and self.tokens[-2].type is T.TEXT:
            return self.tokens[-2].start
        return end

    def next(self) -> Token:
        token = self.tokens[self.at]
        if token.type is T.EOF:
            point = self.end_point()
            raise TwigSyntaxError("Unexpected end of template.", point, point)
        self.at += 1
        return token

    def test(self, type_: T, value: str | tuple[str, ...] | None = None) -> bool:
        token = self.tokens[self.at]
        if token.type is not type_:
            return False
        if value is None:
            return True
        return token.value in value if isinstance(value, tuple) else token.value == value

    def next_if(self, type_: T, value: str | None = None) -> Token | None:
        return self.next() if self.test(type_, value) else None

    def expect(self, type_: T, value: str | None = None, message: str = "") -> Token:
        token = self.tokens[self.at]
        if not self.test(type_, value):
            if token.type is T.EOF:
                token = Token(T.EOF, "", self.end_point(), self.end_point())
            got = f' of value "{token.value}"' if token.value else ""
            wanted = f' with value "{value}"' if value else ""
            prefix = f"{message}. " if message else ""
            raise TwigSyntaxError(
                f'{prefix}Unexpected token "{english(token)}"{got} '
                f'("{type_.value}" expected{wanted}).',
                token.start,
                token.end,
            )
        return self.next()

    def fail(self, message: str, token: Token) -> TwigSyntaxError:
        return TwigSyntaxError(message, token.start, token.end)

    # -- what the template does ---------------------------------------------------------------

    def use(self, kind: SymbolKind, name: str, start: int, end: int, known: bool) -> None:
        self.facts.symbols.append(SymbolUse(kind, name, start, end))
        if not known:
            problem_kind = {
                SymbolKind.FILTER: ProblemKind.UNKNOWN_FILTER,
                SymbolKind.FUNCTION: ProblemKind.UNKNOWN_FUNCTION,
                SymbolKind.TEST: ProblemKind.UNKNOWN_TEST,
                SymbolKind.TAG: ProblemKind.UNKNOWN_TAG,
            }[kind]
            message = f'Unknown "{name}" {kind.value}.'
            self.facts.problems.append(Problem(problem_kind, start, end, message, name))

    def read(self, token: Token) -> None:
        name = token.value
        if name in GLOBALS or name in self.bound or name in self.arrow_params:
            return
        self.facts.reads.append((name, token.start, token.end))

    def guard(self, node: Node) -> None:
        if node.kind in ("name", "getattr") and node.name is not None:
            self.facts.guarded.add(node.name)

    def bind(self, name: str, token: Token, kind: str, visible_from: int, visible_to: int) -> None:
        self.facts.bindings.append(
            Binding(name, token.start, token.end, kind, visible_from, visible_to)
        )
        self.bound.add(name)

    # -- expressions --------------------------------------------------------------------------

    def parse_expression(self, precedence: int = 0, allow_arrow: bool = False) -> Node:
        if allow_arrow and (arrow := self.parse_arrow()) is not None:
            return arrow
        expr = self.get_primary()
        token = self.current
        while token.type is T.OPERATOR and token.value in BINARY:
            operator_precedence, right = BINARY[token.value]
            if operator_precedence < precedence:
                break
            self.next()
            if token.value in ("is", "is not"):
                expr = self.parse_test(expr)
            else:
                if token.value == "??":
                    self.guard(expr)
                next_precedence = operator_precedence if right else operator_precedence + 1
                right_side = self.parse_expression(next_precedence, True)
                expr = Node("other", expr.start, right_side.end, children=(expr, right_side))
            token = self.current
        if precedence == 0:
            return self.parse_conditional(expr)
        return expr

    def parse_arrow(self) -> Node | None:
        if self.look(1).type is T.ARROW:
            start = self.current.start
            param = self.expect(T.NAME)
            self.expect(T.ARROW)
            return self.arrow_body(start, [param])
        if not self.test(T.PUNCTUATION, "("):
            return None
        i = 1
        while True:
            i += 1
            if not (self.look(i).type is T.PUNCTUATION and self.look(i).value == ","):
                break
            i += 1
        closing = self.look(i)
        if not (closing.type is T.PUNCTUATION and closing.value == ")"):
            return None
        if self.look(i + 1).type is not T.ARROW:
            return None
        start = self.expect(T.PUNCTUATION, "(").start
        params = []
        while True:
            params.append(self.expect(T.NAME))
            if not self.next_if(T.PUNCTUATION, ","):
                break
        self.expect(T.PUNCTUATION, ")")
        self.expect(T.ARROW)
        return self.arrow_body(start, params)

    def arrow_body(self, start: int, params: list[Token]) -> Node:
        body_start = self.current.start
        self.arrow_params.extend(param.value for param in params)
        try:
            body = self.parse_expression(0)
        finally:
            del self.arrow_params[len(self.arrow_params) - len(params) :]
        for param in params:
            self.facts.bindings.append(
                Binding(param.value, param.start, param.end, "arrow", body_start, body.end)
            )
        return Node("other", start, body.end)

    def get_primary(self) -> Node:
        token = self.current
        if token.type is T.OPERATOR and token.value in UNARY:
            self.next()
            operand = self.parse_expression(UNARY[token.value])
            kind = "other" if token.value == "not" else "unary"
            node = Node(kind, token.start, operand.end, children=(operand,))
            return self.parse_postfix(node)
        if token.type is T.PUNCTUATION and token.value == "(":
            self.next()
            expr = self.parse_expression()
            self.expect(T.PUNCTUATION, ")", "An opened parenthesis is not properly closed")
            return self.parse_postfix(expr)
        return self.parse_primary()

    def parse_conditional(self, expr: Node) -> Node:
        while self.next_if(T.PUNCTUATION, "?"):
            if not self.next_if(T.PUNCTUATION, ":"):
                last = self.parse_expression()
                if self.next_if(T.PUNCTUATION, ":"):
                    last = self.parse_expression()
            else:
                last = self.parse_expression()
            expr = Node("other", expr.start, last.end)
        return expr

    def parse_primary(self) -> Node:
        token = self.current
        node: Node
        if token.type is T.NAME:
            self.next()
            if token.value in ("true", "TRUE", "false", "FALSE", "none", "NONE", "null", "NULL"):
                node = Node("const", token.start, token.end)
            elif self.test(T.PUNCTUATION, "("):
                node = self.function_call(token)
            else:
                self.read(token)
                node = Node("name", token.start, token.end, token.value)
        elif token.type is T.NUMBER:
            self.next()
            node = Node("const", token.start, token.end)
        elif token.type in (T.STRING, T.INTERPOLATION_START):
            node = self.parse_string()
        elif token.type is T.OPERATOR and _NAME_WHOLE.match(token.value):
            # In this place Twig reads a word operator (`in`, `matches`) as a variable.
            self.next()
            self.read(token)
            node = Node("name", token.start, token.end, token.value)
        elif token.type is T.OPERATOR and token.value in UNARY:
            if token.value not in ("-", "+"):
                raise self.fail(f'Unexpected unary operator "{token.value}".', token)
            self.next()
            operand = self.parse_primary()
            node = Node("unary", token.start, operand.end, children=(operand,))
        elif token.type is T.PUNCTUATION and token.value == "[":
            node = self.parse_array()
        elif token.type is T.PUNCTUATION and token.value == "{":
            node = self.parse_hash()
        elif (
            token.type is T.OPERATOR and token.value == "=" and self.look(-1).value in ("==", "!=")
        ):
            raise self.fail(
                f'Unexpected operator of value "{token.value}". Did you try to use "===" or "!==" '
                'for strict comparison? Use "is same as(value)" instead.',
                token,
            )
        else:
            raise self.fail(f'Unexpected token "{english(token)}" of value "{token.value}".', token)
        return self.parse_postfix(node)

    def parse_string(self) -> Node:
        start = self.current.start
        end = start
        parts = 0
        interpolated = False
        next_can_be_string = True
        while True:
            if next_can_be_string and (token := self.next_if(T.STRING)):
                end = token.end
                next_can_be_string = False
            elif self.next_if(T.INTERPOLATION_START):
                interpolated = True
                self.parse_expression()
                end = self.expect(T.INTERPOLATION_END).end
                next_can_be_string = True
            else:
                break
            parts += 1
        # A double-quoted string's closing quote is no token: its span ends after it.
        if end < len(self.source) and self.source[end : end + 1] == '"':
            end += 1
        return Node("other" if interpolated or parts > 1 else "const", start, end)

    def parse_array(self) -> Node:
        start = self.expect(T.PUNCTUATION, "[", "An array element was expected").start
        elements = []
        first = True
        while not self.test(T.PUNCTUATION, "]"):
            if not first:
                self.expect(T.PUNCTUATION, ",", "An array element must be followed by a comma")
                if self.test(T.PUNCTUATION, "]"):
                    break
            first = False
            elements.append(self.parse_expression())
        end = self.expect(T.PUNCTUATION, "]", "An opened array is not properly closed").end
        return Node("array", start, end, children=tuple(elements))

    def parse_hash(self) -> Node:
        start = self.expect(T.PUNCTUATION, "{", "A hash element was expected").start
        values = []
        first = True
        while not self.test(T.PUNCTUATION, "}"):
            if not first:
                self.expect(T.PUNCTUATION, ",", "A hash value must be followed by a comma")
                if self.test(T.PUNCTUATION, "}"):
                    break
            first = False
            if key := self.next_if(T.NAME):
                self.hash_keys.append(key)
                if self.test(T.PUNCTUATION, (",", "}")):
                    # `{a}` is `{a: a}`.
                    self.read(key)
                    values.append(Node("name", key.start, key.end, key.value))
                    continue
            elif key := self.next_if(T.STRING):
                self.hash_keys.append(key)
            elif self.next_if(T.NUMBER):
                pass
            elif self.test(T.PUNCTUATION, "("):
                self.parse_expression()
            else:
                current = self.current
                raise self.fail(
                    "A hash key must be a quoted string, a number, a name, or an expression "
                    f'enclosed in parentheses (unexpected token "{english(current)}" of value '
                    f'"{current.value}".',
                    current,
                )
            self.expect(T.PUNCTUATION, ":", "A hash key must be followed by a colon (:)")
            values.append(self.parse_expression())
        end = self.expect(T.PUNCTUATION, "}", "An opened hash is not properly closed").end
        return Node("array", start, end, children=tuple(values))

    def parse_postfix(self, node: Node) -> Node:
        while self.current.type is T.PUNCTUATION:
            value = self.current.value
            if value in (".", "["):
                node = self.parse_subscript(node)
            elif value == "|":
                self.next()
                node = self.parse_filters(node)
            else:
                break
        return node

    def function_call(self, name: Token) -> Node:
        line_token = name
        if name.value in PARSER_FUNCTIONS:
            arguments = self.parse_arguments()
            self.facts.symbols.append(
                SymbolUse(SymbolKind.FUNCTION, name.value, name.start, name.end)
            )
            if name.value == "parent":
                if not self.block_stack:
                    raise self.fail('Calling "parent" outside a block is forbidden.', line_token)
                if not self.has_parent and not self.has_traits:
                    raise self.fail(
                        'Calling "parent" on a template that does not extend nor "use" another '
                        "template is forbidden.",
                        line_token,
                    )
            elif name.value == "block" and len(arguments) < 1:
                raise self.fail(
                    'The "block" function takes one argument (the block name).', line_token
                )
            elif name.value == "attribute" and len(arguments) < 2:
                raise self.fail(
                    'The "attribute" function takes at least two arguments (the variable and '
                    "the attributes).",
                    line_token,
                )
            return Node("other", name.start, self.look(-1).end)
        if name.value in self.imported_functions:
            self.parse_arguments()
            return Node("other", name.start, self.look(-1).end)
        self.parse_arguments(named=True)
        known = name.value in self.vocabulary.functions
        self.use(SymbolKind.FUNCTION, name.value, name.start, name.end, known)
        return Node("other", name.start, self.look(-1).end)

    def parse_subscript(self, node: Node) -> Node:
        token = self.next()
        if token.value == ".":
            attribute = self.next()
            if not (
                attribute.type in (T.NAME, T.NUMBER)
                or (attribute.type is T.OPERATOR and _NAME_START.match(attribute.value))
            ):
                raise TwigSyntaxError(
                    f'Expected name or number, got value "{attribute.value}" of type '
                    f"{english(attribute)}.",
                    attribute.start,
                    attribute.end,
                    line_at=token.start,
                )
            if self.test(T.PUNCTUATION, "("):
                self.parse_arguments()
            root = node.name if node.kind in ("name", "getattr") else None
            return Node("getattr", node.start, self.look(-1).end, root)
        slice_ = False
        if self.test(T.PUNCTUATION, ":"):
            slice_ = True
        else:
            self.parse_expression()
        if self.next_if(T.PUNCTUATION, ":"):
            slice_ = True
        if slice_:
            if not self.test(T.PUNCTUATION, "]"):
                self.parse_expression()
            end = self.expect(T.PUNCTUATION, "]").end
            return Node("other", node.start, end)
        end = self.expect(T.PUNCTUATION, "]").end
        root = node.name if node.kind in ("name", "getattr") else None
        return Node("getattr", node.start, end, root)

    def parse_filters(self, node: Node) -> Node:
        """`|name(args)|…`, after the first `|`."""
        while True:
            name = self.expect(T.NAME)
            if self.test(T.PUNCTUATION, "("):
                self.parse_arguments(named=True, allow_arrow=True)
            if name.value == "default":
                self.guard(node)
            known = name.value in self.vocabulary.filters
            self.use(SymbolKind.FILTER, name.value, name.start, name.end, known)
            node = Node("other", node.start, self.look(-1).end)
            if not self.test(T.PUNCTUATION, "|"):
                return node
            self.next()

    def parse_arguments(
        self, named: bool = False, definition: bool = False, allow_arrow: bool = False
    ) -> list[Node]:
        arguments: list[Node] = []
        self.expect(
            T.PUNCTUATION, "(", "A list of arguments must begin with an opening parenthesis"
        )
        while not self.test(T.PUNCTUATION, ")"):
            if arguments:
                self.expect(T.PUNCTUATION, ",", "Arguments must be separated by a comma")
                if self.test(T.PUNCTUATION, ")"):
                    break
            if definition:
                token = self.expect(T.NAME, None, "An argument must be a name")
                value = Node("name", token.start, token.end, token.value)
                self.definition_names.append(token)
            else:
                value = self.parse_expression(0, allow_arrow)
            if named and (equals := self.next_if(T.OPERATOR, "=")):
                if value.kind != "name":
                    raise self.fail(
                        f'A parameter name must be a string, "{_node_class(value)}" given.',
                        equals,
                    )
                if definition:
                    value = self.parse_primary()
                    if not _is_constant(value):
                        raise self.fail(
                            "A default value for an argument must be a constant (a boolean, a "
                            "string, a number, or an array).",
                            equals,
                        )
                else:
                    value = self.parse_expression(0, allow_arrow)
            arguments.append(value)
        self.expect(T.PUNCTUATION, ")", "A list of arguments must be closed by a parenthesis")
        return arguments

    def parse_assignment(self) -> list[Token]:
        targets = []
        while True:
            token = self.current
            if token.type is T.OPERATOR and _NAME_START.match(token.value):
                self.next()
            else:
                self.expect(T.NAME, None, "Only variables can be assigned to")
            if token.value.lower() in ("true", "false", "none", "null"):
                raise self.fail(f'You cannot assign a value to "{token.value}".', token)
            targets.append(token)
            if not self.next_if(T.PUNCTUATION, ","):
                return targets

    def parse_multitarget(self) -> list[Node]:
        values = []
        while True:
            values.append(self.parse_expression())
            if not self.next_if(T.PUNCTUATION, ","):
                return values

    def parse_test(self, node: Node) -> Node:
        name = self.expect(T.NAME)
        test_name, end = name.value, name.end
        known = test_name in self.vocabulary.tests
        if not known and self.test(T.NAME):
            two_words = f"{name.value} {self.current.value}"
            if two_words in self.vocabulary.tests:
                test_name, end, known = two_words, self.next().end, True
            else:
                test_name = two_words
        # An unknown test is named by its first word, for a "did you mean" on what was typed.
        self.use(SymbolKind.TEST, test_name if known else name.value, name.start, end, known)
        if test_name == "defined":
            self.guard(node)
        if self.test(T.PUNCTUATION, "("):
            self.parse_arguments(named=True)
        elif test_name in ONE_ARGUMENT_TESTS:
            self.parse_primary()
        return Node("other", node.start, self.look(-1).end)


def _is_constant(node: Node) -> bool:
    if node.kind not in ("const", "array", "unary"):
        return False
    return all(_is_constant(child) for child in node.children)


def _node_class(node: Node) -> str:
    return {
        "const": "Twig\\Node\\Expression\\ConstantExpression",
        "getattr": "Twig\\Node\\Expression\\GetAttrExpression",
        "array": "Twig\\Node\\Expression\\ArrayExpression",
    }.get(node.kind, "Twig\\Node\\Expression\\AbstractExpression")
