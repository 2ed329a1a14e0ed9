package layoutd

import (
	"errors"
	"fmt"

	"layoutd/clients/go/layoutdv1"
)

// Code says why a request failed: the protocol's codes (layoutdv1.Error_Code's names), then the
// failures this side names.
type Code string

// The protocol's codes.
const (
	InvalidArgument    Code = "INVALID_ARGUMENT"
	NotFound           Code = "NOT_FOUND"
	ResourceExhausted  Code = "RESOURCE_EXHAUSTED"
	Unimplemented      Code = "UNIMPLEMENTED"
	DeadlineExceeded   Code = "DEADLINE_EXCEEDED"
	Cancelled          Code = "CANCELLED"
	Malformed          Code = "MALFORMED"
	Internal           Code = "INTERNAL"
	Unavailable        Code = "UNAVAILABLE"
	PermissionDenied   Code = "PERMISSION_DENIED"
	FailedPrecondition Code = "FAILED_PRECONDITION"
	// Unknown is a code a newer daemon sent; Error.Number holds it.
	Unknown Code = "UNKNOWN"
)

// The failures on this side.
const (
	// Unreachable: no daemon to talk to, or one this user does not trust.
	Unreachable Code = "UNREACHABLE"
	// ConnectionLost: the connection was lost after the request went, before its reply.
	ConnectionLost Code = "CONNECTION_LOST"
	// DocumentGone: the document was open on a connection that was lost; open it again.
	DocumentGone Code = "DOCUMENT_GONE"
	// Timeout: no reply within the client's timeout (or the context's deadline).
	Timeout Code = "TIMEOUT"
	// Protocol: the daemon answered something that is not the protocol.
	Protocol Code = "PROTOCOL"
	// Unsupported: the daemon speaks another protocol version, or does not serve the request.
	Unsupported Code = "UNSUPPORTED"
)

// Error is every failure the client returns: the daemon's refusal (its code, the request
// field at fault, its message) or a failure on this side. Compare codes with errors.As:
//
//	var failure *layoutd.Error
//	if errors.As(err, &failure) && failure.Code == layoutd.InvalidArgument { ... }
type Error struct {
	Code    Code
	Field   string
	Message string
	// Number is the code's number on the wire, for a refusal by the daemon.
	Number int32
	cause  error
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s %s: %s", e.Code, e.Field, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.cause }

// Is makes errors.Is(err, layoutd.ErrDocumentGone) and the like hold by code.
func (e *Error) Is(target error) bool {
	var other *Error
	return errors.As(target, &other) && other.Field == "" && other.Message == "" && other.Code == e.Code
}

// Sentinels for errors.Is.
var (
	ErrUnreachable    = &Error{Code: Unreachable}
	ErrConnectionLost = &Error{Code: ConnectionLost}
	ErrDocumentGone   = &Error{Code: DocumentGone}
	ErrTimeout        = &Error{Code: Timeout}
)

func failure(code Code, cause error, format string, arguments ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, arguments...), cause: cause}
}

func refusal(wire *layoutdv1.Error) *Error {
	name, known := layoutdv1.Error_Code_name[int32(wire.GetCode())]
	if !known || wire.GetCode() == layoutdv1.Error_CODE_UNSPECIFIED {
		name = string(Unknown)
	}
	return &Error{Code: Code(name), Field: wire.GetField(), Message: wire.GetMessage(), Number: int32(wire.GetCode())}
}

func documentGone(document uint64) *Error {
	return &Error{Code: DocumentGone, Field: "document",
		Message: fmt.Sprintf("document %d was open on a connection to layoutd that was lost, so the daemon closed it; open it again", document)}
}
