/// How a picture fills a box of another shape (UIKit's `contentMode`, YYText's attachment
/// `contentMode`); the box clips what passes it.
public enum ContentMode: Hashable, Sendable, CaseIterable {
    /// Each axis stretched to the box.
    case scaleToFill
    /// One factor, the picture inside the box, centred.
    case aspectFit
    /// One factor, the box covered, centred.
    case aspectFill
    /// A pixel a point, centred.
    case center

    /// Where a picture `width` × `height` pixels is drawn for `box`: its scale on each axis and
    /// its top-left corner.
    public func placement(width: Double, height: Double, in box: Rect) -> (scaleX: Double, scaleY: Double, origin: Point) {
        let (scaleX, scaleY): (Double, Double)
        switch self {
        case .scaleToFill: (scaleX, scaleY) = (box.width / width, box.height / height)
        case .aspectFit: scaleX = min(box.width / width, box.height / height); scaleY = scaleX
        case .aspectFill: scaleX = max(box.width / width, box.height / height); scaleY = scaleX
        case .center: (scaleX, scaleY) = (1, 1)
        }
        return (scaleX, scaleY, Point(x: box.x + (box.width - width * scaleX) / 2, y: box.y + (box.height - height * scaleY) / 2))
    }
}
