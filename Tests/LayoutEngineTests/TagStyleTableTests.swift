import Foundation
import Testing
@testable import LayoutEngine

/// The tag style table: data, toggled through, recognised from the labels' angles.
@Suite struct TagStyleTableTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theShippedTableIsTheFileInTheRepository() throws {
        let file = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("data/tag-styles.json"), encoding: .utf8)
        #expect(TagStyleTable.defaultJSON + "\n" == file, "copy data/tag-styles.json into Sources/LayoutEngine/Tags/TagStyleTable+Default.swift")
    }

    @Test func theDefaultTableHasTwelveStyles() {
        let table = TagStyleTable.standard
        #expect((1...3).map { table.count(for: $0) } == [4, 4, 4])
        for count in 1...3 {
            let kinds = table.styles[count]!.map { "\($0.side!.rawValue) \($0.line!.rawValue)" }
            #expect(kinds == ["right straight", "left straight", "right slanted", "left slanted"])
        }
    }

    @Test(arguments: [1, 2, 3])
    func toggleVisitsEveryStyleAndComesBack(_ count: Int) throws {
        let table = TagStyleTable.standard
        var style = 0
        var seen: [Int] = []
        for _ in 0..<table.count(for: count) {
            seen.append(style)
            style = try table.toggled(style, labelCount: count)
        }
        #expect(style == 0 && seen == [0, 1, 2, 3])
        #expect(throws: LayoutError.self) { try table.toggled(4, labelCount: count) }
    }

    @Test(arguments: [1, 2, 3])
    func resetRecognisesEveryStyleFromAllItsAngles(_ count: Int) {
        let table = TagStyleTable.standard
        for (index, style) in table.styles[count]!.enumerated() {
            let angles = style.labels.map(\.angle)
            #expect(table.recognize(angles: angles) == index)
            #expect(table.recognize(angles: angles.map { $0 + 0.3 }) == index, "within the tolerance")
            #expect(table.recognize(angles: angles.map { $0 - 0.3 + 360 }) == index, "on the circle")
            #expect(table.recognize(angles: angles.map { $0 + 5 }) == nil)
        }
        let lists = table.styles[count]!.map { $0.labels.map(\.angle) }
        #expect(Set(lists).count == lists.count, "no two styles share their angles, or reset could not tell them apart")
    }

    @Test func resetComparesEveryLabelNotOnlyTheFirst() {
        let table = TagStyleTable.standard
        // The first label's angle is right slanted's (45), the second no style's: the original, comparing the first alone, took it.
        #expect(table.recognize(angles: [45, 270]) == nil)
        #expect(table.recognize(angles: [90, 0]) == 0 && table.recognize(angles: [90, 180]) == 1)
        #expect(table.recognize(angles: [0, 90]) == nil, "the labels' order counts")
        #expect(table.recognize(angles: [45, 0, 315]) == 2)
        #expect(table.recognize(angles: [45, 0, 314]) == nil)
        #expect(table.recognize(angles: [.nan]) == nil)
        #expect(table.recognize(angles: [0, 0, 0, 0]) == nil)
    }

    @Test func neighboursGoMirrorFirstThenLineKind() {
        let table = TagStyleTable.standard
        #expect(table.neighbours(of: 0, labelCount: 1) == [0, 1, 2, 3])
        #expect(table.neighbours(of: 1, labelCount: 1) == [1, 0, 3, 2])
        #expect(table.neighbours(of: 2, labelCount: 2) == [2, 3, 0, 1])
        #expect(table.neighbours(of: 3, labelCount: 3) == [3, 2, 1, 0])
    }

    @Test func aTableFromJSONIsCheckedAndNamesWhatIsWrong() throws {
        let custom = try TagStyleTable(json: Array(#"{"styles": {"1": [{"labels": [{"angle": 30, "line": "slanted", "side": "right"}]}]}}"#.utf8))
        #expect(custom.count(for: 1) == 1 && custom.count(for: 2) == 0)
        #expect(try custom.toggled(0, labelCount: 1) == 0)
        let bad: [(String, String)] = [
            (#"{"styles": {"4": []}}"#, "style_table_json.styles"),
            (#"{"styles": {"one": []}}"#, "style_table_json.styles"),
            (#"{"styles": {"2": [{"labels": [{"angle": 0, "line": "straight", "side": "right"}]}]}}"#, "style_table_json.styles.2[0].labels"),
            (#"{"styles": {"1": [{"labels": [{"angle": 0, "line": "curly", "side": "right"}]}]}}"#, "style_table_json"),
            ("not json", "style_table_json"),
        ]
        for (json, field) in bad {
            let error = #expect(throws: LayoutError.self) { try TagStyleTable(json: Array(json.utf8)) }
            #expect(error?.field == field && error?.code == .invalidArgument, "\(json): \(String(describing: error))")
        }
        let huge = #expect(throws: LayoutError.self) { try TagStyleTable(json: Array(repeating: UInt8(ascii: " "), count: 70_000)) }
        #expect(huge?.code == .resourceExhausted)
        let noStyle = #expect(throws: LayoutError.self) { try custom.style(0, labelCount: 2, field: "style") }
        #expect(noStyle?.message.contains("none") == true)
    }
}
