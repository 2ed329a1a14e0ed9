import Foundation

/// Runs HarfBuzz's own `hb-shape` (libharfbuzz-bin), the reference the shaping tests compare with.
public enum HBShape {
    public static let path = "/usr/bin/hb-shape"

    /// Its output for `text` with `arguments` before it, trimmed; nil when hb-shape is missing.
    public static func output(_ text: String, _ arguments: [String]) throws -> String? {
        try output(arguments: arguments + [text])
    }

    /// Its output with `arguments` alone (the text given by one of them, as `--unicodes=`),
    /// trimmed; nil when hb-shape is missing.
    public static func output(arguments: [String]) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The "|"-separated entries of its output ("[36+1234|72+1080]").
    public static func entries(_ text: String, _ arguments: [String]) throws -> [Substring]? {
        try output(text, arguments)?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "|")
    }
}
