import ArgumentParser
import Foundation
import LayoutdClient

/// Where a subcommand's text comes from, the same in every subcommand: the argument, with `\n`
/// a line break and `\\` a backslash; else `--text-file`; else standard input when the argument
/// is `-` or absent and standard input is not a terminal. File and standard input are taken as
/// they are. A text that starts with a dash goes after `--`.
struct TextInput: ParsableArguments {
    @Option(help: "Read the text from this file (UTF-8), as it is.")
    var textFile: String?

    @Argument(help: ArgumentHelp(
        "The text; \\n in it is a line break, \\\\ a backslash. '-' or none: standard input, as it is. Put -- before a text starting with '-'.",
        valueName: "text"))
    var text: String?

    func validate() throws {
        if textFile != nil, let text, text != "-" {
            throw ValidationError("give the text as an argument or with --text-file, not both")
        }
    }

    /// The text, read; a file or standard input that cannot be read is an I/O failure.
    func resolve() throws -> String {
        if let textFile {
            do { return try String(contentsOf: URL(fileURLWithPath: textFile), encoding: .utf8) } catch {
                throw ClientError.io("cannot read --text-file \(textFile): \(error.localizedDescription)")
            }
        }
        if let text, text != "-" { return Self.unescaped(text) }
        guard text == "-" || isatty(STDIN_FILENO) == 0 else {
            throw ValidationError("give the text as an argument, with --text-file, or on standard input")
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let read = String(data: data, encoding: .utf8) else { throw ClientError.io("standard input is not UTF-8") }
        return read
    }

    /// `\n` a line break, `\\` a backslash; any other backslash stays as it is.
    static func unescaped(_ text: String) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n": out.append("\n")
                case "\\": out.append("\\")
                default: out.append("\\"); out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        if escaping { out.append("\\") }
        return out
    }
}
