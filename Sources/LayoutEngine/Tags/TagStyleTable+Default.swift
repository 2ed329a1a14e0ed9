// The JSON of `data/tag-styles.json`, kept byte for byte (TagStyleTableTests fails when they differ):
// the daemon ships as one binary, with no data directory to find.
extension TagStyleTable {
    static let defaultJSON = #"""
{
  "comment": "layoutd's default image-tag styles. Keys: label count, then a list of styles (the style index is the position). Each label: angle in degrees counter-clockwise from pointing right (the leader runs from the dot along it), its line (straight or slanted) and the side its text extends to. Reset recognises a style from its angles alone, so no two styles of one label count share them. A style may add \"legibility\": {\"shadowBlur\", \"shadowOpacity\", \"backing\": \"#rrggbbaa\", \"backingPadding\", \"backingRadius\"} (each optional); without it a tag casts a 3-point shadow at 0.6.",
  "styles": {
    "1": [
      { "name": "right straight", "labels": [ { "angle": 0, "line": "straight", "side": "right" } ] },
      { "name": "left straight", "labels": [ { "angle": 180, "line": "straight", "side": "left" } ] },
      { "name": "right slanted", "labels": [ { "angle": 45, "line": "slanted", "side": "right" } ] },
      { "name": "left slanted", "labels": [ { "angle": 135, "line": "slanted", "side": "left" } ] }
    ],
    "2": [
      { "name": "right straight", "labels": [ { "angle": 90, "line": "straight", "side": "right" },
                                              { "angle": 0, "line": "straight", "side": "right" } ] },
      { "name": "left straight", "labels": [ { "angle": 90, "line": "straight", "side": "left" },
                                             { "angle": 180, "line": "straight", "side": "left" } ] },
      { "name": "right slanted", "labels": [ { "angle": 45, "line": "slanted", "side": "right" },
                                             { "angle": 315, "line": "slanted", "side": "right" } ] },
      { "name": "left slanted", "labels": [ { "angle": 135, "line": "slanted", "side": "left" },
                                            { "angle": 225, "line": "slanted", "side": "left" } ] }
    ],
    "3": [
      { "name": "right straight", "labels": [ { "angle": 90, "line": "straight", "side": "right" },
                                              { "angle": 0, "line": "straight", "side": "right" },
                                              { "angle": 270, "line": "straight", "side": "right" } ] },
      { "name": "left straight", "labels": [ { "angle": 90, "line": "straight", "side": "left" },
                                             { "angle": 180, "line": "straight", "side": "left" },
                                             { "angle": 270, "line": "straight", "side": "left" } ] },
      { "name": "right slanted", "labels": [ { "angle": 45, "line": "slanted", "side": "right" },
                                             { "angle": 0, "line": "slanted", "side": "right" },
                                             { "angle": 315, "line": "slanted", "side": "right" } ] },
      { "name": "left slanted", "labels": [ { "angle": 135, "line": "slanted", "side": "left" },
                                            { "angle": 180, "line": "slanted", "side": "left" },
                                            { "angle": 225, "line": "slanted", "side": "left" } ] }
    ]
  }
}
"""#
}
