/// layoutd's release, as `--version` prints it, the hello reply carries it and the Debian
/// package is numbered (scripts/package-deb.sh reads it from here).
public enum LayoutdVersion {
    public static let current = "0.3.0"
}
