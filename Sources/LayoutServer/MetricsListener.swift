import Foundation
import Synchronization
import NIOCore
import NIOHTTP1
import NIOPosix

/// An optional HTTP listener for Prometheus to scrape (`GET /metrics`), on a loopback address
/// only: the daemon's API stays the Unix socket, and the metrics carry nothing a local user
/// could not ask for with `layoutctl stats --prometheus`.
///
/// It is held to the daemon's limits: at most `maxConnections` at once (Prometheus needs one;
/// more are closed as they arrive), each closed `lifetime` after it was accepted whatever it has
/// sent (a scrape takes milliseconds; half a request head held open took a descriptor for ever),
/// and the connection cap leaves room for them under the descriptor limit.
public final class MetricsListener: Sendable {
    let channel: Channel
    /// Scrape connections open at once, at most.
    public static let maxConnections = 8
    /// How long a scrape connection may stay open, from its accept.
    public static let lifetime = TimeAmount.seconds(5)
    private let open = OpenCount()

    /// The count, shared with the accept path's closures.
    final class OpenCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// `host:port` with a loopback host (127.0.0.1, ::1, localhost); port 0 picks a free one.
    public static func parse(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ReloadError("--metrics-listen takes HOST:PORT, got \"\(text)\"")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw ReloadError("--metrics-listen serves loopback only (127.0.0.1, ::1 or localhost), not \(host)")
        }
        return (host, port)
    }

    public init(host: String, port: Int, group: EventLoopGroup, metrics: @escaping @Sendable () -> String) throws {
        let open = self.open
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Past the cap: closed at once, its descriptor back before the next accept.
                guard open.value.wrappingAdd(1, ordering: .relaxed).newValue <= Self.maxConnections else {
                    open.value.wrappingSubtract(1, ordering: .relaxed)
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in open.value.wrappingSubtract(1, ordering: .relaxed) }
                let expiry = channel.eventLoop.scheduleTask(in: Self.lifetime) { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in expiry.cancel() }
                return channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(MetricsHandler(metrics: metrics))
                }
            }
            .bind(host: host, port: port).wait()
    }

    /// Scrape connections open now.
    public var openConnections: Int { open.value.load(ordering: .relaxed) }

    /// The port it listens on (the one chosen for port 0).
    public var port: Int { channel.localAddress?.port ?? 0 }

    public func close() { try? channel.close().wait() }
}

/// Answers GET /metrics with the exposition and anything else with 404.
final class MetricsHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let metrics: @Sendable () -> String

    init(metrics: @escaping @Sendable () -> String) { self.metrics = metrics }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let request) = unwrapInboundIn(data) else { return }
        let found = request.method == .GET && (request.uri == "/metrics" || request.uri.hasPrefix("/metrics?"))
        let body = found ? metrics() : "not found: GET /metrics\n"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: found ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: found ? .ok : .notFound, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
