/// Arrays written in place through an allocation the compiler specializes.
///
/// The standard library's `init(unsafeUninitializedCapacity:initializingWith:)` and
/// `init(repeating:count:)` allocate in a function it does not inline, which looks the array's
/// storage class up at run time: a probe of the runtime's metadata table on every call, for every
/// element type. Appending into reserved capacity (`append(addingCapacity:initializingWith:)`) is
/// emitted into the caller, whose storage class comes from a cached accessor. The engine links
/// this file too (a symbolic link), as it does SaturatingConversion.swift.
extension ContiguousArray {
    /// An array of at most `capacity` elements that `body` writes into uninitialized memory,
    /// setting how many it initialized (the prefix of the buffer), as
    /// `init(unsafeUninitializedCapacity:initializingWith:)` does.
    /// SAFETY: as that initializer's: `body` initializes exactly the first `initialized`
    /// elements, writes nothing past `capacity` and does not keep the buffer; every caller
    /// counts its elements before it allocates.
    @inline(__always)
    init<E: Error>(specializedCapacity capacity: Int,
                   initializingWith body: (UnsafeMutableBufferPointer<Element>, inout Int) throws(E) -> Void) throws(E) {
        self.init()
        // Room for one at least: appending no capacity to the empty array writes its count into
        // the one empty storage every empty array shares, a write two threads race on
        // (ThreadSanitizer saw it); and `body` is given a buffer with an address.
        try append(addingCapacity: Swift.max(capacity, 1)) { (span: inout OutputSpan<Element>) throws(E) in
            try span.withUnsafeMutableBufferPointer { buffer, initialized throws(E) in try body(buffer, &initialized) }
        }
    }
}

extension ContiguousArray {
    /// The same through an `OutputSpan`, whose appends are checked, for callers that need no
    /// buffer of their own; `body` is not called for no capacity.
    @inline(__always)
    init<E: Error>(exactCapacity capacity: Int, appending body: (inout OutputSpan<Element>) throws(E) -> Void) throws(E) {
        self.init()
        // As above, no shared count written: `body`, which could append nothing, is not called.
        guard capacity > 0 else { return }
        try append(addingCapacity: capacity, initializingWith: body)
    }
}

extension Array {
    /// The same for an array (which takes the contiguous array's storage as it is).
    /// SAFETY: as above.
    @inline(__always)
    init<E: Error>(specializedCapacity capacity: Int,
                   initializingWith body: (UnsafeMutableBufferPointer<Element>, inout Int) throws(E) -> Void) throws(E) {
        self.init(try ContiguousArray(specializedCapacity: capacity, initializingWith: body))
    }

    /// The same through an `OutputSpan` (see the contiguous array's).
    @inline(__always)
    init<E: Error>(exactCapacity capacity: Int, appending body: (inout OutputSpan<Element>) throws(E) -> Void) throws(E) {
        self.init(try ContiguousArray(exactCapacity: capacity, appending: body))
    }
}
