import CHarfBuzz

/// The Unicode Script property as HarfBuzz's own character database gives it, so that runs are
/// cut where HarfBuzz's shaping expects them.
package enum UnicodeScripts {
    nonisolated(unsafe) private static let functions = hb_unicode_funcs_get_default()

    /// The script of `scalar` as its ISO 15924 tag ('Latn'), with Zinh and Zzzz as HarfBuzz
    /// gives them.
    package static func script(of scalar: UInt32) -> UInt32 { hb_unicode_script(functions, scalar).rawValue }
}
