import LayoutEngine
import LayoutFonts
import CCairo
import CFreeType
import CHarfBuzz

/// The FreeType faces Cairo draws glyphs with, made from the files the layout used.
///
/// Lifetime rule: a face is freed only by Cairo, through the destroy callback of the font face's
/// user data, when Cairo's last reference goes. That can be long after the renderer that made it
/// is gone: Cairo keeps recently used scaled fonts (and through them their font faces and
/// cairo-ft's unscaled fonts, keyed by the `FT_Face` address) in process-wide caches. So the
/// library the faces come from is one per process and never freed: each renderer once had its
/// own and freed it at `deinit`, taking every face with it, and a reload followed by more
/// pictures crashed in libfreetype when Cairo later used or freed a face of it.
/// FreeType asks that making and freeing faces of one library be serialized; the callback can
/// run on any thread that calls Cairo, so both go through `libraryLock`, held for nothing else.
enum DrawingFaces {
    fileprivate static let libraryLock = Locked(())
    nonisolated(unsafe) fileprivate static let library: FT_Library? = {
        var library: FT_Library?
        return FT_Init_FreeType(&library) == 0 ? library : nil
    }()
    /// Cairo identifies user data by the key's address.
    nonisolated(unsafe) private static var freeTypeFaceKey = cairo_user_data_key_t()

    /// A Cairo font face over a new FreeType face of `font`, read from the font's mapped bytes
    /// (never the path again: the file could since have been replaced by a FIFO), or nil when
    /// FreeType cannot open it. The caller owns one reference (`cairo_font_face_destroy`).
    static func cairoFace(_ font: Font) -> OpaquePointer? {
        guard let held = HeldFace(font) else { return nil }
        // FT_LOAD_COLOR (1 << 20): colour bitmap glyphs (Noto Color Emoji) keep their colours.
        guard let face = cairo_ft_font_face_create_for_ft_face(held.face, Int32(1 << 20)) else { return nil }
        let attached = cairo_font_face_set_user_data(face, &freeTypeFaceKey, Unmanaged.passRetained(held).toOpaque()) { pointer in
            if let pointer { Unmanaged<HeldFace>.fromOpaque(pointer).release() }
        }
        guard attached == CAIRO_STATUS_SUCCESS else {
            // Cairo did not take the face: it is freed with `held`, after Cairo lets go of it.
            Unmanaged.passUnretained(held).release()
            cairo_font_face_destroy(face)
            return nil
        }
        return face
    }

    /// A FreeType face and the bytes it reads, freed together.
    private final class HeldFace {
        let face: FT_Face
        let blob: OpaquePointer

        init?(_ font: Font) {
            guard let library, let blob = font.fileBlob else { return nil }  // a face without a file draws nothing
            var made: FT_Face?
            DrawingFaces.libraryLock.withLock { _ in made = FreeTypeFaces.memoryFace(library: library, blob: blob, index: font.faceIndex) }
            guard let face = made else { return nil }
            self.face = face
            self.blob = hb_blob_reference(blob)
        }

        deinit {
            nonisolated(unsafe) let face = face  // freed under the lock, on whichever thread Cairo let go
            DrawingFaces.libraryLock.withLock { _ in _ = FT_Done_Face(face) }
            hb_blob_destroy(blob)
        }
    }
}
