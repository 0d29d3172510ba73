"""The Twig names a PHP extension class registers, read from its source text (no PHP runs).

One reader for every source of names: Twig's own extensions and Drupal core's (the generator,
scripts/generate_twig_vocabulary.py, writes `names_generated.py` with it) and a site's modules
(core/workspace/twig_extensions.py). What is read, as Twig's `ExtensionSet` collects it:

- in the bodies of `getFilters`, `getFunctions` and `getTests`, each `new TwigFilter('name'`,
  `new TwigFunction(…` and `new TwigTest(…` — the class spelt `TwigFilter`, `\\Twig\\TwigFilter`
  or any alias a `use` gives it, the name in either quote style;
- in the body of `getTokenParsers`, each class constructed (`new TransTokenParser()`), resolved
  to its full name through the file's namespace and `use` lines; its tag is the literal its
  `getTag()` returns (`token_parser_tag`);
- from a Drupal `*.services.yml`, the classes of the services tagged `twig.extension`.

A name that is no literal (`new TwigFilter($name, …)`) cannot be known from the text: it is
counted in `dynamic`, so that whoever reads the names knows the list is not the whole story.
Comments are left out before reading, so a commented-out filter is not registered."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

TWIG_FILTER = "Twig\\TwigFilter"
TWIG_FUNCTION = "Twig\\TwigFunction"
TWIG_TEST = "Twig\\TwigTest"
_KINDS = {"getFilters": TWIG_FILTER, "getFunctions": TWIG_FUNCTION, "getTests": TWIG_TEST}

_NEW = re.compile(r"\bnew\s+(\\?[A-Za-z_][\w\\]*)\s*\(\s*")
_LITERAL = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\$]|\\.)*)\"""")
_NAMESPACE = re.compile(r"^\s*namespace\s+([\w\\]+)\s*;", re.MULTILINE)
_USE = re.compile(r"^\s*use\s+([\w\\]+)(?:\s+as\s+(\w+))?\s*;", re.MULTILINE | re.IGNORECASE)
_RETURN_LITERAL = re.compile(r"^\s*return\s+(?:'([^'\\]*)'|\"([^\"\\$]*)\")\s*;\s*$")


@dataclass(frozen=True)
class ExtensionNames:
    """What one extension class registers: its names, the token parser classes whose tags it
    adds (full class names), and how many registrations had a name no literal gives."""

    filters: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    token_parsers: tuple[str, ...] = ()
    dynamic: int = 0


def without_comments(php: str) -> str:
    """`php` with its `//`, `#` and `/* */` comments blanked (strings kept as written; a `#[`
    attribute kept); offsets are unchanged."""
    out = list(php)
    i, n = 0, len(php)
    while i < n:
        c = php[i]
        if c in "'\"":
            i += 1
            while i < n and php[i] != c:
                i += 2 if php[i] == "\\" else 1
            i += 1
        elif php.startswith("/*", i):
            end = php.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out[i:end] = [ch if ch == "\n" else " " for ch in php[i:end]]
            i = end
        elif php.startswith("//", i) or (c == "#" and not php.startswith("#[", i)):
            end = php.find("\n", i)
            end = n if end < 0 else end
            out[i:end] = " " * (end - i)
            i = end
        else:
            i += 1
    return "".join(out)


def method_body(php: str, method: str) -> str | None:
    """The text between the braces of `function <method>(…)` in comment-free `php` (None: no
    such method). Braces inside strings are skipped."""
    found = re.search(rf"\bfunction\s+{re.escape(method)}\s*\(", php)
    if found is None:
        return None
    start = php.find("{", found.end())
    if start < 0:
        return None
    depth, i = 0, start
    while i < len(php):
        c = php[i]
        if c in "'\"":
            i += 1
            while i < len(php) and php[i] != c:
                i += 2 if php[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return php[start + 1 : i]
        i += 1
    return php[start + 1 :]


def class_resolver(php: str) -> ClassResolver:
    """How the file `php` spells classes: its namespace and its `use` imports."""
    namespace = _NAMESPACE.search(php)
    imports: dict[str, str] = {}
    for used in _USE.finditer(php):
        full = used.group(1).lstrip("\\")
        imports[(used.group(2) or full.rpartition("\\")[2]).lower()] = full
    return ClassResolver(namespace.group(1) if namespace else "", imports)


@dataclass(frozen=True)
class ClassResolver:
    namespace: str
    imports: Mapping[str, str]

    def full_name(self, name: str) -> str:
        """A class name as PHP resolves it in this file (`\\A\\B` is absolute)."""
        if name.startswith("\\"):
            return name[1:]
        head, _, rest = name.partition("\\")
        imported = self.imports.get(head.lower())
        if imported is not None:
            return f"{imported}\\{rest}" if rest else imported
        return f"{self.namespace}\\{name}" if self.namespace else name


def registered_names(php: str) -> ExtensionNames:
    """The names the extension class in `php` registers (see the module)."""
    code = without_comments(php)
    resolver = class_resolver(code)
    found: dict[str, list[str]] = {kind: [] for kind in _KINDS.values()}
    dynamic = 0
    for method, kind in _KINDS.items():
        body = method_body(code, method)
        for new in _NEW.finditer(body or ""):
            if resolver.full_name(new.group(1)) != kind:
                continue
            literal = _LITERAL.match(body or "", new.end())
            if literal is None:
                dynamic += 1
            else:
                found[kind].append(_unquoted(literal))
    parsers = tuple(
        resolver.full_name(new.group(1))
        for new in _NEW.finditer(method_body(code, "getTokenParsers") or "")
    )
    return ExtensionNames(
        filters=tuple(dict.fromkeys(found[TWIG_FILTER])),
        functions=tuple(dict.fromkeys(found[TWIG_FUNCTION])),
        tests=tuple(dict.fromkeys(found[TWIG_TEST])),
        token_parsers=tuple(dict.fromkeys(parsers)),
        dynamic=dynamic,
    )


def constructed_classes(php: str, method: str) -> tuple[str, ...]:
    """The full names of the classes `method` of the file `php` constructs (`new X(`): which
    extensions Twig's `Environment` adds to itself in its constructor, say."""
    code = without_comments(php)
    resolver = class_resolver(code)
    body = method_body(code, method) or ""
    return tuple(dict.fromkeys(resolver.full_name(m.group(1)) for m in _NEW.finditer(body)))


def token_parser_tag(php: str) -> str | None:
    """The tag the token parser class in `php` parses: the literal its `getTag()` returns
    (None: no such method, or it returns no literal)."""
    body = method_body(without_comments(php), "getTag")
    if body is None:
        return None
    returned = _RETURN_LITERAL.match(body.strip())
    return None if returned is None else returned.group(1) or returned.group(2)


def _unquoted(literal: re.Match[str]) -> str:
    single, double = literal.group(1), literal.group(2)
    text = single if single is not None else double
    return re.sub(r"\\(.)", r"\1", text)


# ----- Drupal's services files ----------------------------------------------------------------

_SERVICE = re.compile(r"^( +)(['\"]?)([^'\":#\s][^'\":#]*?)\2\s*:\s*(.*?)\s*$")
_CLASS = re.compile(r"^\s+class\s*:\s*['\"]?\\?([\w\\]+)['\"]?\s*$")
_TWIG_TAG = re.compile(r"\bname\s*:\s*['\"]?twig\.extension['\"]?\s*(?=[,}\]]|$)", re.MULTILINE)


def twig_extension_services(services_yml: str) -> tuple[str, ...]:
    """The classes of the services a Drupal `*.services.yml` text tags `twig.extension` (a
    service without `class:` is named by its class, as Drupal's autowired services are).
    Read line by line, in the shape Drupal's services files are written: the services one
    indentation below `services:`, each with its own lines below it."""
    lines = [line.split(" #", 1)[0].rstrip() for line in services_yml.splitlines()]
    found: list[str] = []
    in_services, indent = False, None
    block: list[str] = []
    service_id = ""

    def close() -> None:
        if service_id and _TWIG_TAG.search("\n".join(block)):
            classes = [m.group(1) for line in block if (m := _CLASS.match(line))]
            name = classes[0] if classes else service_id.lstrip("\\")
            if "\\" in name:
                found.append(name)

    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith((" ", "\t")):
            close()
            block, service_id = [], ""
            in_services, indent = line.startswith("services:"), None
            continue
        if not in_services:
            continue
        width = len(line) - len(line.lstrip(" "))
        if indent is None:
            indent = width
        if width == indent:
            close()
            entry = _SERVICE.match(line)
            service_id = entry.group(3) if entry else ""
            block = [entry.group(4)] if entry else []
        elif width > indent:
            block.append(line)
    close()
    return tuple(dict.fromkeys(found))


def class_file(class_name: str, psr4: Sequence[tuple[str, str]]) -> str | None:
    """Where a class lives by PSR-4 (`Drupal\\mymodule\\Twig\\X` under the prefix
    `Drupal\\mymodule\\` → its folder `/src/Twig/X.php`): the longest prefix that names it."""
    for prefix, folder in sorted(psr4, key=lambda entry: -len(entry[0])):
        if class_name.startswith(prefix):
            rest = class_name[len(prefix) :].replace("\\", "/")
            return f"{folder.rstrip('/')}/{rest}.php"
    return None


@dataclass(frozen=True)
class ReadExtensions:
    """The names a set of extension classes registers, read through PSR-4: the names by kind,
    the files that gave them (class → file), and what could not be read (a class no file
    holds, a tag no literal gives, a name no literal gives), said in words."""

    filters: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    tests: frozenset[str] = frozenset()
    tags: frozenset[str] = frozenset()
    files: tuple[tuple[str, str], ...] = ()
    unread: tuple[str, ...] = ()


def read_extensions(
    classes: Sequence[str], psr4: Sequence[tuple[str, str]], read: Callable[[str], str | None]
) -> ReadExtensions:
    """The names `classes` register, each class's file found by `psr4` and read by `read`
    (None: no such file), its token parsers' tags from their own files."""
    names: dict[str, set[str]] = {"filters": set(), "functions": set(), "tests": set()}
    tags: set[str] = set()
    files: list[tuple[str, str]] = []
    unread: list[str] = []

    def text_of(class_name: str) -> str | None:
        path = class_file(class_name, psr4)
        text = read(path) if path is not None else None
        if text is None:
            unread.append(f"no file holds {class_name}")
        else:
            files.append((class_name, path or ""))
        return text

    for class_name in dict.fromkeys(classes):
        text = text_of(class_name)
        if text is None:
            continue
        registered = registered_names(text)
        names["filters"].update(registered.filters)
        names["functions"].update(registered.functions)
        names["tests"].update(registered.tests)
        if registered.dynamic:
            unread.append(f"{class_name} registers {registered.dynamic} name(s) no literal gives")
        for parser in registered.token_parsers:
            parser_text = text_of(parser)
            if parser_text is None:
                continue
            tag = token_parser_tag(parser_text)
            if tag is None:
                unread.append(f"{parser}::getTag() returns no literal")
            else:
                tags.add(tag)
    return ReadExtensions(
        filters=frozenset(names["filters"]),
        functions=frozenset(names["functions"]),
        tests=frozenset(names["tests"]),
        tags=frozenset(tags),
        files=tuple(files),
        unread=tuple(unread),
    )
