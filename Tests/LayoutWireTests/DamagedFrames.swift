import LayoutWire
import Testing
import TestSupport

/// Flipped, dropped and inserted bytes in copies of each frame body: wherever a fast reader
/// answers, swift-protobuf decodes the same bytes to the same message (compared as bytes: a
/// damaged float can be NaN, which no message equals). Returns how many damaged copies `read`
/// answered; callers hold that above a floor, since a reader that gave up on all would prove little.
func damagedFramesRead(_ bodies: [[UInt8]], copies: Int, seed: UInt64,
                       by read: ([UInt8]) -> Layoutd_V1_Envelope?) throws -> Int {
    var generator = SeededGenerator(seed: seed)
    var answered = 0
    for body in bodies where !body.isEmpty {
        for damaged in generator.damagedCopies(of: body, count: copies) {
            guard let fast = read(damaged) else { continue }
            answered += 1
            let reference: [UInt8]? = try (try? Layoutd_V1_Envelope(serializedBytes: damaged))?.serializedBytes()
            #expect(reference == (try fast.serializedBytes()), "\(damaged)")
        }
    }
    return answered
}
