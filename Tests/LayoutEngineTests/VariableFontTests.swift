import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// Variable fonts (Debian's fonts-inter-variable: Inter 4 with a `wght` axis, 100–900, and nine
/// named instances): axis values per span, named instances, the weight moving its axis as CSS does,
/// each shaped exactly as `hb-shape --variations` shapes it and drawn at the same axis values.
/// Debian has no font with an optical-size axis: the coordinates an `opsz`, `ital` or `slnt` axis
/// gets are checked on the axes alone (HarfBuzz shapes whatever coordinates it is given).
@Suite struct VariableFontTests {
    static let interPath = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
    static let registry: FontRegistry? = {
        guard FileManager.default.fileExists(atPath: interPath) else { return nil }
        return try? FontRegistry.load(paths: [interPath, "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"], defaultFamily: "Inter")
    }()

    static func layouter() throws -> ParagraphLayouter {
        let registry = try #require(registry, "fonts-inter-variable is missing: scripts/setup.sh installs it")
        return ParagraphLayouter(fonts: registry)
    }

    /// `isAutomatic`, the shortcut a style's init and setter take, says what `== .automatic` says,
    /// for every field changed alone and together; and a style made with settings keeps them.
    @Test func isAutomaticEqualsComparingWithAutomatic() {
        let cases: [FontVariationSettings] = [
            .automatic, FontVariationSettings(), FontVariationSettings(axes: [FontVariation(tag: "wght", value: 650)]),
            FontVariationSettings(namedInstance: "Bold"), FontVariationSettings(opticalSizing: false),
            FontVariationSettings(opticalSize: 24), FontVariationSettings(opticalSize: 0),
            FontVariationSettings(axes: [], namedInstance: "", opticalSizing: true, opticalSize: nil),
            FontVariationSettings(axes: [FontVariation(tag: "opsz", value: 12)], namedInstance: "Light", opticalSizing: false, opticalSize: 9),
        ]
        for settings in cases {
            #expect(settings.isAutomatic == (settings == .automatic), "\(settings)")
            #expect(TextStyle(family: "Inter", variations: settings).variations == settings, "\(settings)")
            var style = TextStyle(family: "Inter", variations: FontVariationSettings(namedInstance: "Bold"))
            style.variations = settings
            #expect(style.variations == settings && (style == TextStyle(family: "Inter", variations: settings)), "\(settings)")
        }
    }

    static func layout(_ text: String = "Hamburgefonstiv", size: Double = 20, weight: Int = 400,
                       variations: FontVariationSettings = .automatic) throws -> ParagraphLayout {
        let style = TextStyle(family: "Inter", weight: weight, size: size, variations: variations)
        return try layouter().layout(ParagraphRequest(text: AttributedText(text, style: style), width: 2000))
    }

    /// hb-shape's glyphs and advances, in font units, at `variations` ("wght=700,opsz=14").
    static func hbShape(_ text: String, variations: String) throws -> [(glyph: UInt32, advance: Int)] {
        // "[36+1234|72+1080|...]"
        let entries = try #require(try HBShape.entries(text, ["--no-glyph-names", "--no-clusters", "--font-file=\(interPath)",
                                                             "--variations=\(variations)"]), "hb-shape is missing: scripts/setup.sh installs it")
        return entries.compactMap { entry in
            let parts = entry.split(separator: "+")
            guard parts.count == 2, let glyph = UInt32(parts[0]), let advance = Int(parts[1]) else { return nil }
            return (glyph, advance)
        }
    }

    /// The layout's glyphs and advances back in font units (Inter's em is 2816).
    static func unitsOf(_ layout: ParagraphLayout, size: Double) -> [(glyph: UInt32, advance: Int)] {
        layout.runs.flatMap { run in run.glyphs.map { ($0.id, Int(saturating: ($0.advance * 2816 / size).rounded())) } }
    }

    static func expectSameShaping(_ layout: ParagraphLayout, size: Double, hbVariations: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try hbShape("Hamburgefonstiv", variations: hbVariations)
        let ours = unitsOf(layout, size: size)
        #expect(!expected.isEmpty, sourceLocation: sourceLocation)
        #expect(ours.map(\.glyph) == expected.map(\.glyph), sourceLocation: sourceLocation)
        #expect(ours.map(\.advance) == expected.map(\.advance), "\(hbVariations)", sourceLocation: sourceLocation)
    }

    @Test func faceListsItsAxesAndNamedInstances() throws {
        let layouter = try Self.layouter()
        let font = try #require(layouter.fonts.match(family: "Inter", weight: 400, italic: false))
        #expect(font.axes.map(\.tag) == ["wght"])
        let weight = try #require(font.axes.first { $0.tag == "wght" })
        #expect(weight.minimum == 100 && weight.defaultValue == 400 && weight.maximum == 900)
        #expect(font.namedInstances.contains { $0.name == "Bold" })
        #expect(font.namedInstances.count >= 9)
    }

    @Test(arguments: [Float(100), 250, 650, 900])
    func axisValuesShapeAsHbShapeDoes(_ value: Float) throws {
        let settings = FontVariationSettings(axes: [FontVariation(tag: "wght", value: value)])
        let layout = try Self.layout(size: 20, variations: settings)
        try Self.expectSameShaping(layout, size: 20, hbVariations: "wght=\(Int(saturating: value))")
        let run = try #require(layout.runs.first)
        #expect(run.variations == [FontVariation(tag: "wght", value: value)])
    }

    @Test func weightMovesTheWeightAxis() throws {
        let bold = try Self.layout(size: 14, weight: 700)
        try Self.expectSameShaping(bold, size: 14, hbVariations: "wght=700")
        let regular = try Self.layout(size: 14, weight: 400)
        #expect(bold.size.width > regular.size.width)
        // At the face's defaults there is no instance: the run names the loaded face alone.
        #expect(regular.runs.allSatisfy { $0.variations.isEmpty && $0.instanceID == $0.fontID })
    }

    /// An axis list as a font with optical size, italic and slant axes has it (Roboto Flex's ranges).
    static let flexAxes = [VariationAxis(tag: "opsz", minimum: 8, defaultValue: 14, maximum: 144),
                           VariationAxis(tag: "wght", minimum: 100, defaultValue: 400, maximum: 1000),
                           VariationAxis(tag: "ital", minimum: 0, defaultValue: 0, maximum: 1),
                           VariationAxis(tag: "slnt", minimum: -10, defaultValue: 0, maximum: 0)]

    static func flexCoordinates(_ style: TextStyle, italicFace: Bool = false) throws -> [Float] {
        try FontRegistry.coordinates(axes: flexAxes, namedInstances: [NamedInstance(name: "Black", coordinates: [14, 1000, 0, 0])],
                                     family: "Flex", italicFace: italicFace, style: style, requested: true)
    }

    @Test func opticalSizeFollowsThePointSizeUnlessFixed() throws {
        #expect(try Self.flexCoordinates(TextStyle(size: 28)) == [28, 400, 0, 0])
        #expect(try Self.flexCoordinates(TextStyle(size: 4)) == [8, 400, 0, 0])  // clamped, as CSS clamps
        #expect(try Self.flexCoordinates(TextStyle(size: 300)) == [144, 400, 0, 0])
        #expect(try Self.flexCoordinates(TextStyle(size: 28, variations: FontVariationSettings(opticalSizing: false))) == [14, 400, 0, 0])
        // An explicit opsz wins over the size.
        let explicit = FontVariationSettings(axes: [FontVariation(tag: "opsz", value: 60)])
        #expect(try Self.flexCoordinates(TextStyle(size: 28, variations: explicit)) == [60, 400, 0, 0])
    }

    @Test func italicMovesItalOnAnUprightFaceOnly() throws {
        #expect(try Self.flexCoordinates(TextStyle(weight: 700, italic: true, size: 14)) == [14, 700, 1, 0])
        #expect(try Self.flexCoordinates(TextStyle(italic: true, size: 14), italicFace: true) == [14, 400, 0, 0])
        // slnt is an explicit choice (CSS oblique angles), never implied by italic.
        let slanted = FontVariationSettings(axes: [FontVariation(tag: "slnt", value: -30)])
        #expect(try Self.flexCoordinates(TextStyle(size: 14, variations: slanted)) == [14, 400, 0, -10])
    }

    @Test func laterAxisValueWinsAndNamedInstanceIsCaseBlind() throws {
        let twice = FontVariationSettings(axes: [FontVariation(tag: "wght", value: 300), FontVariation(tag: "wght", value: 600)])
        #expect(try Self.flexCoordinates(TextStyle(size: 14, variations: twice)) == [14, 600, 0, 0])
        #expect(try Self.flexCoordinates(TextStyle(weight: 200, size: 20, variations: FontVariationSettings(namedInstance: "black")))
                == [20, 1000, 0, 0])
    }

    @Test func namedInstanceSetsEveryAxisAndBeatsTheWeight() throws {
        let named = try Self.layout(size: 14, weight: 300, variations: FontVariationSettings(namedInstance: "bold"))
        try Self.expectSameShaping(named, size: 14, hbVariations: "wght=700")
        // An explicit axis value is applied over the instance.
        let over = try Self.layout(size: 14, variations: FontVariationSettings(axes: [FontVariation(tag: "wght", value: 800)],
                                                                                namedInstance: "Bold"))
        try Self.expectSameShaping(over, size: 14, hbVariations: "wght=800")
    }

    @Test func unknownNamedInstanceIsRefusedNamingTheOnesThereAre() throws {
        #expect {
            _ = try Self.layout(variations: FontVariationSettings(namedInstance: "Ultra Wide"))
        } throws: { error in
            guard let error = error as? LayoutError else { return false }
            return error.code == .invalidArgument && error.field == "named_instance" && error.message.contains("Ultra Wide")
                && error.message.contains("Bold")
        }
    }

    @Test func axesTheFaceLacksAreIgnoredAndValuesClamped() throws {
        let settings = FontVariationSettings(axes: [FontVariation(tag: "wdth", value: 50), FontVariation(tag: "wght", value: 5000)])
        let layout = try Self.layout(size: 14, variations: settings)
        try Self.expectSameShaping(layout, size: 14, hbVariations: "wght=900")
        #expect(layout.runs.first?.variations == [FontVariation(tag: "wght", value: 900)])
    }

    @Test func instancesAreMadeOnceAndFoundByID() throws {
        let layouter = try Self.layouter()
        let first = try Self.layout(size: 14, weight: 555)
        let count = layouter.fonts.instances.count
        let second = try Self.layout(size: 14, weight: 555)
        #expect(layouter.fonts.instances.count == count)
        let run = try #require(first.runs.first)
        #expect(run.instanceID == second.runs.first?.instanceID)
        #expect(run.instanceID >= FontInstances.firstID)
        let instance = try #require(layouter.fonts.font(id: run.instanceID))
        #expect(instance.wireID == run.fontID && instance.coordinates == [555])
    }

    /// Instances count against the user whose request made them, in one share for the loaded
    /// set and every registry made over it: past its share a user is refused by name, another
    /// user is still served, and a registry's instances go back to the share when it goes.
    @Test func instancesAreSharedPerUser() throws {
        let loaded = try #require(Self.registry, "fonts-inter-variable is missing: scripts/setup.sh installs it")
        let share = FairShare("variable font instances", capacity: 4)
        let registry = FontRegistry(fonts: loaded.fonts, defaultFamily: "Inter", fallbackFamilies: [], instanceShare: share)
        let layouter = ParagraphLayouter(fonts: registry)
        func layout(_ weight: Int, user: UInt32, on layouter: ParagraphLayouter) throws -> ParagraphLayout {
            let style = TextStyle(family: "Inter", weight: weight, size: 20)
            return try layouter.layout(ParagraphRequest(text: AttributedText("Shared", style: style), width: 400),
                                       budget: WorkBudget(user: user))
        }
        for weight in [310, 320, 330, 340] { _ = try layout(weight, user: 1, on: layouter) }
        #expect(share.held(by: 1) == 4)
        // One made already is anyone's, free.
        #expect(try layout(320, user: 2, on: layouter).runs[0].variations == [FontVariation(tag: "wght", value: 320)])
        do {
            _ = try layout(350, user: 1, on: layouter)
            Issue.record("a fifth instance for user 1 was made past its share")
        } catch let error as LayoutError {
            #expect(error.code == .resourceExhausted && error.field == "variations" && error.message.contains("past its share of 4"),
                    "\(error)")
        }
        // User 2 holds none: served up to its share (half the capacity, with two users).
        for weight in [510, 520] { _ = try layout(weight, user: 2, on: layouter) }
        #expect(share.held(by: 2) == 2 && share.total == 6)
        #expect(throws: LayoutError.self) { try layout(530, user: 2, on: layouter) }

        // A registry made over the set (a connection's client fonts) counts in the same share,
        // and gives its instances back when it goes.
        do {
            let client = try registry.adding([ClientFont(family: "Brand", bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.interPath))))],
                                             field: "fonts")
            let clientLayouter = ParagraphLayouter(fonts: client)
            _ = try layout(510, user: 3, on: clientLayouter)
            #expect(share.held(by: 3) == 1 && share.total == 7)
        }
        #expect(share.held(by: 3) == 0 && share.total == 6)
    }

    @Test func metricsFollowTheAxes() throws {
        // Ink: the heaviest weight's stems are wider than the lightest's.
        let thin = try Self.layout("l", size: 100, weight: 100)
        let black = try Self.layout("l", size: 100, weight: 900)
        let thinFont = try #require(Self.registry?.font(id: thin.runs[0].instanceID))
        let blackFont = try #require(Self.registry?.font(id: black.runs[0].instanceID))
        let glyph = thin.runs[0].glyphs[0].id
        #expect(blackFont.inkExtents(glyph).width > thinFont.inkExtents(glyph).width * 2)
    }
}
