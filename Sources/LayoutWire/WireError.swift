import LayoutEngine

/// A per-request failure as it goes on the wire: code, message and the offending field.
public struct WireError: Error, Equatable, CustomStringConvertible {
    public var code: Layoutd_V1_Error.Code
    public var message: String
    public var field: String

    public init(_ code: Layoutd_V1_Error.Code, _ message: String, field: String = "") {
        self.code = code
        self.message = message
        self.field = field
    }

    /// Any failure of a request's work as the wire reports it, its field placed under the
    /// request's name ("layout.width"). The one place engine errors become wire errors: a layout
    /// error keeps its code, a wire error its own, and anything else is INTERNAL.
    public init(_ error: any Error, under prefix: String) {
        switch error {
        case let error as LayoutError:
            self.init(Self.code(of: error.code), error.message, field: LayoutError.path(prefix, error.field))
        case let error as WireError:
            self.init(error.code, error.message, field: LayoutError.path(prefix, error.field))
        default:
            self.init(.internal, "\(error)", field: prefix)
        }
    }

    /// The wire's code for an engine error's.
    public static func code(of code: LayoutError.Code) -> Layoutd_V1_Error.Code {
        switch code {
        case .invalidArgument: .invalidArgument
        case .notFound: .notFound
        case .resourceExhausted: .resourceExhausted
        case .internal: .internal
        case .deadlineExceeded: .deadlineExceeded
        case .cancelled: .cancelled
        }
    }

    public var wireMessage: Layoutd_V1_Error {
        var error = Layoutd_V1_Error()
        error.code = code
        error.message = message
        error.field = field
        return error
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
