import LayoutEngine

/// HarfBuzz as the engine's `ShapingLibrary`: what a style and a layout scratch hold for it. Every
/// loaded face names it (`HarfBuzzShaping.library`), and a registry of them takes it, so each
/// style's language and features are converted once, when the style is resolved.
package struct HarfBuzzLibrary: ShapingLibrary {
    package init() {}

    package func prepare(language: String, features: [FontFeature], user: UInt32?) -> AnyObject {
        HarfBuzzStyle(language: language, features: features, user: user)
    }
}

/// A style's language, interned, and its features, as HarfBuzz takes them, and whether HarfBuzz
/// may keep the plans it makes for them (`ShapingSettings`).
final class HarfBuzzStyle {
    let language: ShapingLanguage?
    let features: ShapingFeatures
    /// False past the settings HarfBuzz keeps: the style is shaped on a twin face made per call.
    let keepsPlans: Bool

    init(language: String, features: [FontFeature], user: UInt32? = nil, settings: ShapingSettings = .shared) {
        self.features = ShapingFeatures(features.map { ($0.tag, $0.value) })
        if language.isEmpty && self.features.list.isEmpty {
            // Nearly every style: the plan HarfBuzz keeps for the script alone, nothing to ask.
            (self.language, keepsPlans) = (nil, true)
        } else {
            (self.language, keepsPlans) = settings.admit(language: language, features: self.features.list, user: user)
        }
    }

    /// The style's HarfBuzz form: the one made when it was resolved, or, for a style resolved
    /// where no face named a library (a registry of the stage tests' faces asked to shape a
    /// loaded one), made now.
    @inline(__always)
    static func of(_ style: ShapingStyle) -> HarfBuzzStyle {
        if let prepared = style.prepared as? HarfBuzzStyle { return prepared }
        return HarfBuzzStyle(language: style.language, features: style.features)
    }
}

extension ShapingBuffer {
    /// The scratch's HarfBuzz buffer, made on its first run and kept with the scratch, its flags
    /// set as the scratch asks.
    @inline(__always)
    static func of(_ scratch: ShapingScratch) -> ShapingBuffer {
        let buffer: ShapingBuffer
        if let kept = scratch.libraryState as? ShapingBuffer {
            buffer = kept
        } else {
            buffer = ShapingBuffer()
            scratch.libraryState = buffer
        }
        if buffer.producesConcatFlags != scratch.producesConcatFlags { buffer.producesConcatFlags = scratch.producesConcatFlags }
        return buffer
    }
}
