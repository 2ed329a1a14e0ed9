import Testing
@testable import LayoutEngine

/// `init(specializedCapacity:initializingWith:)` makes the arrays the standard library's
/// `init(unsafeUninitializedCapacity:initializingWith:)` makes, for any capacity and count.
@Suite struct SpecializedCapacityTests {
    static func fill(_ buffer: UnsafeMutableBufferPointer<Int>, _ written: inout Int, count: Int) {
        for index in 0..<count { buffer.initializeElement(at: index, to: index * 7 + 1) }
        written = count
    }

    @Test(arguments: [(0, 0), (1, 0), (1, 1), (5, 3), (64, 64), (1_000, 999)])
    func equalsTheStandardLibrarys(capacity: Int, count: Int) {
        let specialized = [Int](specializedCapacity: capacity) { Self.fill($0, &$1, count: count) }
        let standard = [Int](unsafeUninitializedCapacity: capacity) { Self.fill($0, &$1, count: count) }
        #expect(specialized == standard)
        #expect(specialized.capacity >= capacity)
        let contiguous = ContiguousArray<Int>(specializedCapacity: capacity) { Self.fill($0, &$1, count: count) }
        #expect(Array(contiguous) == standard)
    }

    /// No capacity still lends a buffer with an address (callers take `baseAddress!`), and the
    /// array it makes is empty: room for one is allocated rather than a count written into the
    /// empty storage every empty array shares.
    @Test func noCapacityLendsRoomOfItsOwn() {
        var lent: UnsafeMutablePointer<Int>?
        let empty = [Int](specializedCapacity: 0) { buffer, written in
            lent = buffer.baseAddress
            written = 0
        }
        #expect(lent != nil)
        #expect(empty.isEmpty)
        #expect(ContiguousArray<Int>(exactCapacity: 0) { _ in Issue.record("called for no capacity") }.isEmpty)
    }

    @Test func anErrorLeavesNothingBehind() {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try [String](specializedCapacity: 4) { (buffer, written) throws(Refused) in
                buffer.initializeElement(at: 0, to: "kept until the throw")
                written = 1
                throw Refused()
            }
        }
    }
}
