import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol
import SwiftProtobuf

extension LayoutCtl {
    struct Fonts: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the fonts the daemon loaded.")
        @OptionGroup var connection: Connection
        @Flag(help: "Also print each face's metrics in font units: ascender, descender, line gap, cap height, x-height, underline and strikeout.")
        var metrics = false

        func run() throws {
            try connection.reportingFailures {
                guard case .fontsReply(let reply) = try connection.client().request(.fonts(.init())) else {
                    throw ClientError.protocolViolation("expected a fonts reply")
                }
                if connection.json { print(try StableJSON.encode(reply)); return }
                print("  id  family                        style              weight  italic  glyph-mapped")
                for face in reply.faces {
                    print(String(format: "%4d  ", face.fontID) + face.family.padded(28) + "  " + face.style.padded(17)
                          + String(format: "  %6d  ", face.weight) + (face.italic ? "yes" : "no").padded(6)
                          + "  \(face.coverage)")
                    if !face.axes.isEmpty {
                        let axes = face.axes.map { "\($0.tag) \(Self.number($0.minimum))-\(Self.number($0.maximum)) (\(Self.number($0.defaultValue)))" }
                        print("      axes: " + axes.joined(separator: ", ") + "; instances: " + face.namedInstances.joined(separator: ", "))
                    }
                    if metrics {
                        print("      units per em \(face.unitsPerEm): ascender \(face.ascender), descender \(face.descender), "
                              + "line gap \(face.lineGap), cap height \(face.capHeight), x-height \(face.xHeight), "
                              + "underline \(face.underlinePosition)/\(face.underlineThickness), "
                              + "strikeout \(face.strikeoutPosition)/\(face.strikeoutThickness)")
                    }
                }
                print("default: \(reply.defaultFamily); fallback: \(reply.fallbackFamilies.joined(separator: ", "))")
            }
        }

        static func number(_ value: Float) -> String {
            value == value.rounded() ? String(Int(saturating: value)) : String(value)
        }
    }

    struct Ping: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check that the daemon answers, and how fast.")
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.reportingFailures {
                let client = try connection.client()
                let start = Date()
                guard case .helloReply(let hello) = try client.request(.hello(.init())) else {
                    throw ClientError.protocolViolation("expected a hello reply")
                }
                if connection.json { print(try StableJSON.encode(hello)); return }
                let micros = Int(saturating: Date().timeIntervalSince(start) * 1e6)
                print("layoutd \(hello.serverVersion) at \(client.socketPath): protocol \(hello.protocolVersion), "
                      + "max frame \(hello.maxFrameBytes) bytes, max text \(hello.maxTextUtf16) UTF-16 units, "
                      + "max reply \(hello.maxReplyBytes) bytes, budget \(hello.requestBudgetMs) ms, "
                      + "\(hello.maxInFlight) in flight, pictures up to \(hello.maxPicturePixels) pixels, \(micros) µs; "
                      + "serves \(hello.features.joined(separator: " "))")
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the daemon's counters.")
        @OptionGroup var connection: Connection
        @Flag(help: "Print every metric in Prometheus' text format (for node_exporter's textfile collector).")
        var prometheus = false

        func run() throws {
            try connection.reportingFailures {
                var request = Layoutd_V1_StatsRequest()
                request.prometheus = prometheus
                guard case .statsReply(let stats) = try connection.client().request(.stats(request)) else {
                    throw ClientError.protocolViolation("expected a stats reply")
                }
                if prometheus { print(stats.prometheusText, terminator: ""); return }
                if connection.json { print(try StableJSON.encode(stats)); return }
                print(String(format: "served %llu, errors %llu, refused %llu, connections %llu open / %llu total, fonts %u, up %.1f s",
                             stats.requestsServed, stats.errors, stats.refused, stats.connectionsOpen, stats.connectionsTotal,
                             stats.fontsLoaded, stats.uptimeSeconds))
                print(String(format: "latency p50 %.1f µs, p90 %.1f µs, p99 %.1f µs; shaping cache %llu hits, %llu misses",
                             stats.latencyP50Us, stats.latencyP90Us, stats.latencyP99Us,
                             stats.shapingCacheHits, stats.shapingCacheMisses))
            }
        }
    }
}

extension LayoutCtl {
    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask the daemon to re-read its fonts and tag styles (as SIGHUP does); root or the daemon's user only.")
        @OptionGroup var connection: Connection

        func run() throws {
            try connection.reportingFailures {
                guard case .reloadReply(let reply) = try connection.client().request(.reload(.init())) else {
                    throw ClientError.protocolViolation("expected a reload reply")
                }
                if connection.json { print(try StableJSON.encode(reply)); return }
                print("reloaded: \(reply.fontsLoaded) font faces; \(reply.message)")
            }
        }
    }
}
