#!/usr/bin/env python3
"""Collects the non-Latin characters of the string table (strings.inc) into a text file, so the
Chinese font can be cut down to exactly the glyphs the page prints.

Usage: font_chars.py src/core/base/strings.inc out.txt
"""
import sys

text = open(sys.argv[1], encoding="utf-8").read()
chars = sorted({c for c in text if ord(c) >= 0x2E80})  # CJK radicals onward, incl. fullwidth punctuation
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("".join(chars))
print(f"{len(chars)} characters for the Chinese font")
