import Foundation
import LayoutEngine
import LayoutWire
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import Synchronization
import Testing
@testable import LayoutServer

/// The handler on an `EmbeddedChannel` with a clock the test moves: replies, the frame and idle
/// timeouts and framing errors, each seen byte for byte, with no socket and no waiting.
@Suite(.serialized) struct ConnectionHandlerTests {
    static let processor: RequestProcessor = {
        do {
            return try RequestProcessor.standalone(configuration: configuration)
        } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()
    static let configuration = ServerConfiguration(maxFrameBytes: 64 << 10, idleTimeoutSeconds: 2, frameTimeoutSeconds: 1)
    static let second: UInt64 = 1_000_000_000

    /// A channel with the handler, active, and the clock it reads.
    final class Harness {
        let channel: EmbeddedChannel
        let clock: Arc
        let pool = NIOThreadPool(numberOfThreads: 1)

        final class Arc: Sendable {
            let now = Atomic<UInt64>(1_000 * ConnectionHandlerTests.second)
            func advance(seconds: Double) { now.add(UInt64(saturating: seconds * 1e9), ordering: .relaxed) }
        }

        init() throws {
            pool.start()
            let clock = Arc()
            self.clock = clock
            let handler = ConnectionHandler(
                processors: ProcessorSwitch(ConnectionHandlerTests.processor, loader: nil, timeoutSeconds: 60), pool: pool,
                tracker: InFlightTracker(), limiter: ConnectionLimiter(maxTotal: 4, maxPerUser: 4),
                configuration: ConnectionHandlerTests.configuration, logger: Logger(label: "test"),
                clock: { clock.now.load(ordering: .relaxed) })
            channel = EmbeddedChannel(handler: handler)
            try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/layoutd-embedded")).wait()
        }

        deinit {
            _ = try? channel.finish()
            try? pool.syncShutdownGracefully()
        }

        func send(_ bytes: [UInt8]) throws {
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            try channel.writeInbound(buffer)
        }

        func send(_ envelope: Layoutd_V1_Envelope) throws { try send(try Framing.encode(envelope)) }

        /// The envelopes written so far, decoded from their frames.
        func replies() throws -> [Layoutd_V1_Envelope] {
            var bytes: [UInt8] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
            return try takeReplies(from: &bytes)
        }

        /// Moves the clock and lets the handler's timer fire.
        func wait(seconds: Double) {
            clock.advance(seconds: seconds)
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(Int64(saturating: seconds * 1000) + 300))
        }
    }

    static func envelope(_ id: UInt64, _ body: Layoutd_V1_Envelope.OneOf_Body) -> Layoutd_V1_Envelope {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = id
        envelope.body = body
        return envelope
    }

    @Test func helloAndASmallLayoutAreAnsweredOnTheLoop() throws {
        let harness = try Harness()
        try harness.send(Self.envelope(1, .hello(Layoutd_V1_HelloRequest())))
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = "Answered on the event loop, no pool"
        layout.width = 120
        try harness.send(Self.envelope(2, .layout(layout)))
        let replies = try harness.replies()
        #expect(replies.map(\.requestID) == [1, 2])
        guard case .helloReply(let hello) = replies.first?.body, case .layoutReply(let reply) = replies.last?.body else {
            Issue.record("unexpected replies \(replies)")
            return
        }
        #expect(hello.maxFrameBytes == 64 << 10)
        #expect(reply.lines.count >= 2)
        #expect(harness.channel.isActive)
    }

    @Test func aFrameThatStopsMidwayIsRefusedByNameAfterTheFrameTimeout() throws {
        let harness = try Harness()
        let frame = try Framing.encode(Self.envelope(3, .hello(Layoutd_V1_HelloRequest())))
        try harness.send(Array(frame.prefix(3)))
        harness.wait(seconds: 0.5)
        #expect(try harness.replies().isEmpty && harness.channel.isActive, "not yet")
        harness.wait(seconds: 0.7)
        let replies = try harness.replies()
        guard case .error(let error) = replies.first?.body else {
            Issue.record("no error reply: \(replies)")
            return
        }
        #expect(error.code == .deadlineExceeded && error.field == "frame")
        #expect(!harness.channel.isActive)
    }

    @Test func anIdleConnectionIsClosedWithoutAWord() throws {
        let harness = try Harness()
        harness.wait(seconds: 1.5)
        #expect(harness.channel.isActive)
        harness.wait(seconds: 1)
        #expect(!harness.channel.isActive)
        #expect(try harness.replies().isEmpty)
    }

    @Test func activityPutsTheIdleClockBack() throws {
        let harness = try Harness()
        harness.wait(seconds: 1.5)
        try harness.send(Self.envelope(4, .hello(Layoutd_V1_HelloRequest())))
        harness.wait(seconds: 1.5)
        #expect(harness.channel.isActive)
        #expect(try harness.replies().map(\.requestID) == [4])
    }

    @Test func anOversizedFrameGetsOneStructuredReplyThenTheConnectionCloses() throws {
        let harness = try Harness()
        try harness.send([0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3])
        let replies = try harness.replies()
        guard case .error(let error) = replies.first?.body else {
            Issue.record("no error reply: \(replies)")
            return
        }
        #expect(error.code == .resourceExhausted && error.field == "frame")
        #expect(error.message.contains("exceeds the limit of 65536 bytes"))
        #expect(!harness.channel.isActive)
    }

    @Test func aCancelForAnUnknownRequestIsDroppedSilently() throws {
        let harness = try Harness()
        var cancel = Layoutd_V1_Cancel()
        cancel.requestID = 99
        try harness.send(Self.envelope(5, .cancel(cancel)))
        try harness.send(Self.envelope(6, .hello(Layoutd_V1_HelloRequest())))
        #expect(try harness.replies().map(\.requestID) == [6])
    }
}
