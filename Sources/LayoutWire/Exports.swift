// The wire types live in LayoutProtocol, which a client links without the engine; everything
// that converts them to and from engine values is here, and sees them through this import.
@_exported import LayoutProtocol
