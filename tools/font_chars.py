#!/usr/bin/env python3
"""Collects the Chinese characters of the given sources into a text file, so the Chinese font can
be cut down to exactly the glyphs the page prints: the string table (strings.inc) and the built-in
model's token pieces (synthetic_model.cpp), which its rule book and flow print in either language.

Usage: font_chars.py out.txt src/core/base/strings.inc src/core/checkpoint/synthetic_model.cpp
"""
import sys

chars = set()
for source in sys.argv[2:]:
    chars |= {c for c in open(source, encoding="utf-8").read() if ord(c) >= 0x2E80}  # CJK radicals onward, incl. fullwidth punctuation
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write("".join(sorted(chars)))
print(f"{len(chars)} characters for the Chinese font")
