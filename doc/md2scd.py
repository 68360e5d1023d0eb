#!/usr/bin/env python3
"""Turns mappings/README.md into skelbridge.map(5) in scdoc's syntax, so
that the man page and the README are one text.

    md2scd.py README.md > skelbridge.map.5.scd

It reads the Markdown that README uses and nothing more: headings, paragraphs,
lists, fenced code, tables, `code`, *emphasis* and [links](...). A heading
"## X" becomes the section "# X" (upper case), "### X" and "#### X" become
"## X"; a table becomes a list of its first column's entries, each with the
other columns under it. Anything it does not know stops it with the line."""

import re
import sys

HEADER = """skelbridge.map(5)

# NAME

skelbridge.map - the mapping files of skelbridge(1): what is sent where

# SYNOPSIS

_NAME_*.map*: UTF-8 text, in sections of *key = value* lines.
*skelbridge run --mapping* _NAME_|_FILE_ uses one; *skelbridge check*
_FILE_ checks one.

"""


def escape(text):
    """Plain text: scdoc's markup characters taken literally."""
    text = text.replace("\\", "\\\\")
    return re.sub(r"([*_])", r"\\\1", text)


def inline(text):
    """`code` in bold, *emphasis* underlined, links as their text."""
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2:
            out.append("*" + escape(part[1:-1]) + "*")
            continue
        part = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", part)
        pieces = re.split(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", part)
        for j, piece in enumerate(pieces):
            out.append("_" + escape(piece) + "_" if j % 2 else escape(piece))
    return "".join(out)


# A column under one of these names describes the entry: its text comes first,
# unlabelled.
PLAIN_COLUMNS = ("Value", "What", "What it sets")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(rows, lineno):
    """A table as a list: the first column's entry, under it the column
    that describes it, then the others after their column's names."""
    head = cells(rows[0])
    if not re.fullmatch(r"\|( *-+ *\|)+", rows[1].replace(":", "-").strip()):
        sys.exit(f"md2scd: line {lineno + 1}: a table without its separator row")
    out = []
    for row in rows[2:]:
        c = cells(row)
        if len(c) != len(head):
            sys.exit(f"md2scd: line {lineno}: {len(c)} cells, the table has {len(head)}")
        plain = [inline(v) for h, v in zip(head[1:], c[1:]) if v and h in PLAIN_COLUMNS]
        rest = [f"{escape(h)}: {inline(v)}" for h, v in zip(head[1:], c[1:])
                if v and h not in PLAIN_COLUMNS]
        body = plain + (["; ".join(rest)] if rest else [])
        out.append(inline(c[0]) + "\n\t" + ("\n\n\t".join(body) or "-") + "\n")
    return "\n".join(out) + "\n"


def convert(lines):
    out = [HEADER]
    i, title_seen, para = 0, False, []

    def flush():
        if para:
            out.append(inline(" ".join(para)) + "\n\n")
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip("\n")
        if line.startswith("```"):
            flush()
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                sys.exit(f"md2scd: line {i + 1}: a code block that does not end")
            out.append("```\n" + "".join(lines[i + 1:end]) + "```\n\n")
            i = end + 1
            continue
        if line.startswith("|"):
            flush()
            start = i
            while i < len(lines) and lines[i].startswith("|"):
                i += 1
            out.append(table(lines[start:i], start + 1))
            continue
        heading = re.match(r"(#+) (.*)", line)
        if heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2)
            if level == 1:
                if title_seen:
                    sys.exit(f"md2scd: line {i + 1}: a second title")
                title_seen = True
                out.append("# DESCRIPTION\n\n")
            elif level == 2:
                out.append("# " + escape(text.upper()) + "\n\n")
            else:
                out.append("## " + inline(text) + "\n\n")
        elif line.startswith("- "):
            flush()
            para.append("- " + line[2:])
        elif line.strip() == "":
            flush()
        else:
            para.append(line.strip())
        i += 1
    flush()
    out.append("# SEE ALSO\n\n*skelbridge*(1)\n")
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: md2scd.py README.md > skelbridge.map.5.scd")
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(convert(f.readlines()))


main()
