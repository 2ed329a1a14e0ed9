#!/usr/bin/env python3
"""Writes the golden vectors' font (Tests/LayoutWireTests/Vectors/tiny.ttf): a TrueType face of
three glyphs (.notdef, a square "A", an empty space), family "Layoutd Tiny", small enough to
sit in golden.json and in the C client's golden builders. Needs fontTools (pip install fonttools);
the committed file is what the tests read, so this runs only to remake it."""
import sys

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen


def square(size, inset):
    pen = TTGlyphPen(None)
    pen.moveTo((inset, 0))
    pen.lineTo((inset, size))
    pen.lineTo((size - inset, size))
    pen.lineTo((size - inset, 0))
    pen.closePath()
    return pen.glyph()


builder = FontBuilder(1000, isTTF=True)
builder.setupGlyphOrder([".notdef", "A", "space"])
builder.setupCharacterMap({0x41: "A", 0x20: "space"})
builder.setupGlyf({".notdef": square(600, 50), "A": square(700, 50), "space": TTGlyphPen(None).glyph()})
builder.setupHorizontalMetrics({".notdef": (600, 50), "A": (700, 50), "space": (250, 0)})
builder.setupHorizontalHeader(ascent=800, descent=-200)
builder.setupNameTable({"familyName": "Layoutd Tiny", "styleName": "Regular"})
builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
builder.setupPost()
builder.save(sys.argv[1] if len(sys.argv) > 1 else "tiny.ttf")
