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

    static func write(_ request: Layoutd_V1_RenderRequest, to path: String, scale: Float, connection: Connection) throws {
        var request = request
        switch (path as NSString).pathExtension.lowercased() {
        case "png": request.format = .png
        case "svg": request.format = .svg
        case "pdf": request.format = .pdf
        default: throw ValidationError("-o must end in .png, .svg or .pdf")
        }
        request.scale = scale
        guard case .renderReply(let reply) = try connection.client().request(.render(request)) else {
            throw ClientError.protocolViolation("expected a render reply")
        }
        do {
            try reply.image.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ClientError.io("cannot write \(path): \(error.localizedDescription)")
        }
        print(String(format: "wrote %@ (%@, %.0f x %.0f pt, %d bytes)", path as NSString, reply.mimeType as NSString,
                     reply.width, reply.height, reply.image.count))
    }
}
