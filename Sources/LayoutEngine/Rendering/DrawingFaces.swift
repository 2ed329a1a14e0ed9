import CCairo
import CFreeType
import Synchronization

/// The FreeType faces Cairo draws glyphs with, made from the files the layout used.
///
/// Lifetime rule: a face is freed only by Cairo, through the destroy callback of the font face's
/// user data, when Cairo's last reference goes. That can be long after the renderer that made it
/// is gone: Cairo keeps recently used scaled fonts (and through them their font faces and
/// cairo-ft's unscaled fonts, keyed by the `FT_Face` address) in process-wide caches. So the
/// library the faces come from is one per process and never freed: each renderer once had its
/// own and freed it at `deinit`, taking every face with it, and a reload followed by more
/// pictures crashed in libfreetype when Cairo later used or freed a face of it (issue 17).
/// FreeType asks that making and freeing faces of one library be serialized; the callback can
/// run on any thread that calls Cairo, so both go through `libraryLock`, held for nothing else.
enum DrawingFaces {
    private static let libraryLock = Mutex(())
    nonisolated(unsafe) private static let library: FT_Library? = {
        var library: FT_Library?
        return FT_Init_FreeType(&library) == 0 ? library : nil
    }()
    /// Cairo identifies user data by the key's address.
    nonisolated(unsafe) private static var freeTypeFaceKey = cairo_user_data_key_t()

    /// A Cairo font face over a new FreeType face of `path`, or nil when FreeType cannot open it.
    /// The caller owns one reference (`cairo_font_face_destroy` when done).
    static func cairoFace(path: String, faceIndex: Int) -> OpaquePointer? {
        guard let ftFace = newFace(path: path, faceIndex: faceIndex) else { return nil }
        // FT_LOAD_COLOR (1 << 20): colour bitmap glyphs (Noto Color Emoji) keep their colours.
        guard let face = cairo_ft_font_face_create_for_ft_face(ftFace, Int32(1 << 20)) else {
            doneFace(UnsafeMutableRawPointer(ftFace))
            return nil
        }
        let attached = cairo_font_face_set_user_data(face, &freeTypeFaceKey, UnsafeMutableRawPointer(ftFace)) { pointer in
            DrawingFaces.doneFace(pointer)
        }
        guard attached == CAIRO_STATUS_SUCCESS else {
            // Cairo did not take the face: it is ours to free, after Cairo lets go of it.
            cairo_font_face_destroy(face)
            doneFace(UnsafeMutableRawPointer(ftFace))
            return nil
        }
        return face
    }

    private static func newFace(path: String, faceIndex: Int) -> FT_Face? {
        libraryLock.withLock { _ in
            var face: FT_Face?
            guard let library, FT_New_Face(library, path, faceIndex, &face) == 0 else { return nil }
            return face
        }
    }

    private static func doneFace(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        libraryLock.withLock { _ in _ = FT_Done_Face(pointer.assumingMemoryBound(to: FT_FaceRec.self)) }
    }
}
