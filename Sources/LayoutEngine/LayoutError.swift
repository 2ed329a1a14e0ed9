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

    /// The same error with its field placed under `prefix` ("labels[2]" + "name"): a stage
    /// that calls another names where in its own request the failing part came from.
    public func under(_ prefix: String) -> LayoutError {
        LayoutError(code, message, field: Self.path(prefix, field))
    }

    /// `prefix.field`, or `prefix` alone for an error about the whole request.
    public static func path(_ prefix: String, _ field: String) -> String {
        field.isEmpty ? prefix : prefix.isEmpty ? field : "\(prefix).\(field)"
    }
}

/// Runs `body`, placing the field of any layout error it throws under `prefix`. Inlinable: the
/// server wraps every step of a keystroke in it, and unspecialized it was a generic call each.
@inlinable
public func under<T>(_ prefix: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as LayoutError { throw error.under(prefix()) }
}
