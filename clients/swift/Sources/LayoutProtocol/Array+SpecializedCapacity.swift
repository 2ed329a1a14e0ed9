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
    @inline(__always)
    init<E: Error>(specializedCapacity capacity: Int,
                   initializingWith body: (UnsafeMutableBufferPointer<Element>, inout Int) throws(E) -> Void) throws(E) {
        self.init()
        try append(addingCapacity: capacity) { (span: inout OutputSpan<Element>) throws(E) in
            try span.withUnsafeMutableBufferPointer { buffer, initialized throws(E) in try body(buffer, &initialized) }
        }
    }
}

extension Array {
    /// The same for an array (which takes the contiguous array's storage as it is).
    @inline(__always)
    init<E: Error>(specializedCapacity capacity: Int,
                   initializingWith body: (UnsafeMutableBufferPointer<Element>, inout Int) throws(E) -> Void) throws(E) {
        self.init(try ContiguousArray(specializedCapacity: capacity, initializingWith: body))
    }
}
