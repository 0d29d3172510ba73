"""Which prints of a template Twig escapes for HTML: FlowDrop's Twig escapes every `{{ }}` as
HTML (spec LANG-7) unless it sits in `{% autoescape false %}` or ends in a filter whose output
needs none. In a value that is no HTML (a URL, JSON, plain text) `&` becomes `&amp;` and a quote
`&quot;`, silently."""

from __future__ import annotations

from flowdrop_lsp.core.expressions.twig.lexer import T, Token, tokenize

# A print ending in one of these is not changed by HTML escaping: marked safe (`raw`, an explicit
# `escape`), or only ever characters escaping leaves alone (digits, percent-encoding).
UNCHANGED_BY_ESCAPING = frozenset({"raw", "escape", "e", "url_encode", "length", "abs", "round"})
_SPECIAL = frozenset("&<>\"'")


def escaped_prints(source: str) -> tuple[tuple[int, int], ...]:
    """The `{{ … }}` prints (their spans, delimiters included) that HTML escaping may change;
    none for a template that does not lex (R11 says why)."""
    tokens, error = tokenize(source)
    if error is not None:
        return ()
    escaping = [True]
    found: list[tuple[int, int]] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type is T.BLOCK_START:
            tag = tokens[index + 1] if index + 1 < len(tokens) else None
            if tag is not None and tag.type is T.NAME and tag.value == "autoescape":
                following = tokens[index + 2] if index + 2 < len(tokens) else None
                off = (
                    following is not None
                    and following.type is T.NAME
                    and following.value == "false"
                )
                escaping.append(not off)
            elif (
                tag is not None
                and tag.type is T.NAME
                and tag.value == "endautoescape"
                and len(escaping) > 1
            ):
                escaping.pop()
        elif token.type is T.VAR_START:
            end = index + 1
            while end < len(tokens) and tokens[end].type is not T.VAR_END:
                end += 1
            body = tokens[index + 1 : end]
            if escaping[-1] and _may_change(body):
                closing = tokens[end].end if end < len(tokens) else token.end
                found.append((token.start, closing))
            index = end
        index += 1
    return tuple(found)


def _may_change(body: list[Token]) -> bool:
    """Whether escaping may change what a print's expression renders."""
    if not body:
        return False
    depth = 0
    last_filter: str | None = None
    for position, token in enumerate(body):
        if token.type is T.PUNCTUATION and token.value in "([{":
            depth += 1
        elif token.type is T.PUNCTUATION and token.value in ")]}":
            depth -= 1
        elif token.type is T.PUNCTUATION and token.value == "|" and depth == 0:
            following = body[position + 1] if position + 1 < len(body) else None
            last_filter = following.value if following is not None else None
        elif depth == 0 and token.type is T.OPERATOR:
            last_filter = None  # `x|raw ~ y`: the filter's output is not what is printed
    if last_filter in UNCHANGED_BY_ESCAPING:
        return False
    # A conditional renders one of its branches: `loop.last ? '' : ','` only ever '' or ','.
    question = _top_level_question(body)
    if question is not None:
        body = body[question + 1 :]
    if all(t.type in (T.NUMBER, T.STRING, T.OPERATOR, T.PUNCTUATION) for t in body):
        # Literals only (`loop.last ? '' : ','` has a name; `'' ~ ','` has none): escaping
        # changes them only when they hold a special character.
        return any(t.type is T.STRING and _SPECIAL & set(t.value) for t in body)
    return True


def _top_level_question(body: list[Token]) -> int | None:
    depth = 0
    for position, token in enumerate(body):
        if token.type is T.PUNCTUATION and token.value in "([{":
            depth += 1
        elif token.type is T.PUNCTUATION and token.value in ")]}":
            depth -= 1
        elif token.type is T.PUNCTUATION and token.value == "?" and depth == 0:
            return position
    return None
