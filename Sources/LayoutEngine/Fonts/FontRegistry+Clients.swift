extension FontRegistry {
    /// This registry's client faces over `base` (a reloaded set) instead of the set they were
    /// added to, the faces themselves kept: no check, no coverage scan again, so a reload costs
    /// each connection with registered fonts a table of names, not a millisecond a megabyte.
    /// nil when `base` has another number of faces: the client faces' ids follow the loaded
    /// ones, and are made again (`adding`).
    public func rebased(onto base: FontRegistry) -> FontRegistry? {
        guard base.fonts.count == fonts.count - clientFonts.count else { return nil }
        return FontRegistry(fonts: base.fonts + clientFonts, defaultFamily: base.defaultFamily, fallbackFamilies: base.fallbackFamilies,
                            shadowedBy: clientFonts, instanceShare: base.instances.share)
    }

    /// The faces a client added: those numbered past the loaded ones of `base`.
    public func clientFaces(after base: FontRegistry) -> ArraySlice<Font> { fonts[base.fonts.count...] }

    /// The share of variable font instances this registry's count against.
    package var instanceShare: FairShare { instances.share }
}
