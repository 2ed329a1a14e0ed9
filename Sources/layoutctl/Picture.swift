import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol

/// Asks the daemon to draw a request and writes the picture; the file's extension picks the format.
enum Picture {
    /// The files of `--attachment-image`, read; an empty path leaves that box a placeholder.
    static func images(_ paths: [String]) throws -> [Data] {
        try paths.map { path in
            guard !path.isEmpty else { return Data() }
            do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw ClientError.io("cannot read \(path): \(error.localizedDescription)")
            }
        }
    }

    /// Writes the picture to `path`, or to standard output for "-" (as hb-view and pango-view
    /// do); `format` (png, svg or pdf) picks the format, else the path's extension.
    static func write(_ request: Layoutd_V1_RenderRequest, to path: String, format: String?, scale: Float,
                      connection: Connection) throws {
        var request = request
        let toStandardOutput = path == "-"
        let name = format?.lowercased() ?? (toStandardOutput ? "" : (path as NSString).pathExtension.lowercased())
        switch name {
        case "png": request.format = .png
        case "svg": request.format = .svg
        case "pdf": request.format = .pdf
        default:
            throw ValidationError(toStandardOutput ? "-o - needs --format png, svg or pdf"
                : format != nil ? "--format must be png, svg or pdf" : "-o must end in .png, .svg or .pdf (or give --format)")
        }
        request.scale = scale
        guard case .renderReply(let reply) = try connection.client().request(.render(request)) else {
            throw ClientError.protocolViolation("expected a render reply")
        }
        let summary = "\(toStandardOutput ? "standard output" : path) (\(reply.mimeType), "
            + String(format: "%.0f x %.0f pt, %d bytes)", reply.width, reply.height, reply.image.count)
        if toStandardOutput {
            // The picture alone on standard output, for a pipe; the summary goes to standard error.
            FileHandle.standardOutput.write(reply.image)
            FileHandle.standardError.write(Data("wrote \(summary)\n".utf8))
            return
        }
        do {
            try reply.image.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ClientError.io("cannot write \(path): \(error.localizedDescription)")
        }
        print("wrote " + summary)
    }
}
