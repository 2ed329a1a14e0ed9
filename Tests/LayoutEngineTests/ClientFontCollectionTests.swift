import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// A client's collection (.ttc) with the faces it asks for (`ClientFont.faceIndices`), held to
/// HarfBuzz's own hb-shape with --face-index on the same file. Noto Sans CJK's collection holds
/// Japanese (0), Korean (1), Simplified (2) and Traditional (3) Chinese first; 骨 has a glyph of
/// its own in each region's design.
@Suite struct ClientFontCollectionTests {
    static let collection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let bytes: FontBytes? = FileManager.default.contents(atPath: collection).map { FontBytes([UInt8]($0)) }

    func glyphs(_ text: String, faceIndices: [Int]) throws -> [UInt32] {
        let client = ClientFont(family: "Brand", bytes: try #require(Self.bytes), faceIndices: faceIndices)
        let registry = try Fixtures.registry.adding([client], field: "fonts")
        let layout = try ParagraphLayouter(fonts: registry).layout(
            ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Brand", size: 20)), width: 300))
        return layout.runs.flatMap(\.glyphIDs)
    }

    func hbShape(_ text: String, faceIndex: Int) throws -> [UInt32]? {
        try HBShape.entries(text, ["--font-file=" + Self.collection, "--face-index=\(faceIndex)", "--no-glyph-names",
                                   "--no-clusters", "--no-positions"])?.map { UInt32($0)! }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"))
    func theAskedFaceShapesAsHBShapeDoes() throws {
        let text = "骨"
        var seen: Set<[UInt32]> = []
        for face in [0, 2, 3] {
            let ours = try glyphs(text, faceIndices: [face])
            #expect(ours == (try #require(try hbShape(text, faceIndex: face))), "face \(face)")
            seen.insert(ours)
        }
        #expect(seen.count == 3, "the regions draw 骨 alike: \(seen)")
    }

    @Test func onlyTheAskedFacesAreAdded() throws {
        let client = ClientFont(family: "Brand", bytes: try #require(Self.bytes), faceIndices: [3, 1])
        let registry = try Fixtures.registry.adding([client], field: "fonts")
        let added = registry.clientFaces(after: Fixtures.registry)
        #expect(added.map(\.faceIndex) == [3, 1])
        let every = try Fixtures.registry.adding([ClientFont(family: "Brand", bytes: try #require(Self.bytes))], field: "fonts")
        #expect(every.clientFaces(after: Fixtures.registry).count > 4)
    }

    @Test func aMissingOrRepeatedFaceIsRefusedByName() throws {
        let bytes = try #require(Self.bytes)
        #expect(throws: LayoutError.self) {
            try Fixtures.registry.adding([ClientFont(family: "Brand", bytes: bytes, faceIndices: [0, 99])], field: "fonts")
        }
        do {
            _ = try Fixtures.registry.adding([ClientFont(family: "Brand", bytes: bytes, faceIndices: [0, 99])], field: "fonts")
        } catch {
            #expect(error.field == "fonts[0].face_indices[1]" && error.message.contains("there is no face 99"), "\(error)")
        }
        do {
            _ = try Fixtures.registry.adding([ClientFont(family: "Brand", bytes: bytes, faceIndices: [2, 2])], field: "fonts")
            Issue.record("a face asked for twice was taken")
        } catch {
            #expect(error.field == "fonts[0].face_indices[1]" && error.message.contains("asked for twice"), "\(error)")
        }
    }
}
