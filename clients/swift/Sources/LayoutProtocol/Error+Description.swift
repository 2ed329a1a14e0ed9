extension Layoutd_V1_Error: CustomStringConvertible {
    /// One line for a person: "INVALID_ARGUMENT layout.width: width must be …".
    public var description: String {
        let name = code.protoName
        return field.isEmpty ? "\(name): \(message)" : "\(name) \(field): \(message)"
    }
}

extension Layoutd_V1_Error.Code {
    /// The name the .proto gives the code, as clients in every language print it.
    public var protoName: String {
        switch self {
        case .unspecified: "CODE_UNSPECIFIED"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .notFound: "NOT_FOUND"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .unimplemented: "UNIMPLEMENTED"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .cancelled: "CANCELLED"
        case .malformed: "MALFORMED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .permissionDenied: "PERMISSION_DENIED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .UNRECOGNIZED(let value): "CODE_\(value)"
        }
    }
}
