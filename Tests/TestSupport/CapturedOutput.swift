import Foundation

/// A child process's output, written to a temporary file rather than a pipe.
///
/// Reading a pipe to its end waits for every writer to close it, and a pipe nobody reads stops a
/// child that writes much. A file is read after the process exits, whoever else holds it.
public final class CapturedOutput {
    public let handle: FileHandle
    private let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-test-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = FileHandle(forWritingAtPath: url.path)!
    }

    /// Everything written so far.
    public var text: String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}
