/// Floating point to integer without a trap, and a compile-time ban on the conversions that trap.
///
/// `Int(someDouble)` traps on NaN, infinity or a value out of range: one request carrying
/// `width = 1e30` once took the whole daemon down that way. Every such conversion goes through
/// `init(saturating:)`. The deprecated shadows below have the standard library's signatures, so
/// overload resolution picks them, and Package.swift makes `DeprecatedDeclaration` an error: a
/// bare `Int(double)` does not compile. Shadowing works only inside the declaring module, so
/// this one file is linked into every target (a symbolic link in each); `ConversionGuardTests`
/// checks that every target has it and that it still refuses a conversion.
extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to this type's range; NaN gives 0.
    init<F: BinaryFloatingPoint>(saturating value: F) {
        if value.isNaN {
            self = 0
        } else if value <= F(Self.min) {
            self = Self.min
        } else if value >= F(Self.max) {
            // F(Self.max) may round up past max (Int64.max becomes 2^63), so >= is the safe test.
            self = Self.max
        } else {
            self = Self(value.rounded(.towardZero))
        }
    }
}

extension Int {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension Int32 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int32(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int32(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension Int64 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int64(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int64(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension UInt {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension UInt32 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt32(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt32(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension UInt64 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt64(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt64(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension Int16 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int16(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int16(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension UInt16 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt16(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt16(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension UInt8 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt8(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use UInt8(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}

extension Int8 {
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int8(saturating:)")
    init(_ value: Double) { fatalError("refused at compile time") }
    @available(*, deprecated, message: "traps on NaN, infinity or overflow: use Int8(saturating:)")
    init(_ value: Float) { fatalError("refused at compile time") }
}
