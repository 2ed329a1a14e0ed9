/// A failure the caller caused or can act on, with the field that was wrong.
///
/// `field` is a path relative to the request ("spans[2].range"); the wire layer prefixes it
/// with the request's name so a client sees e.g. "layout.spans[2].range".
public struct LayoutError: Error, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case invalidArgument, notFound, resourceExhausted, `internal`
        /// The request's time budget ran out, or its client cancelled it (see `WorkBudget`).
        case deadlineExceeded, cancelled
    }
    public var code: Code
    public var message: String
    public var field: String

    public init(_ code: Code, _ message: String, field: String) {
        self.code = code
        self.message = message
        self.field = field
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
