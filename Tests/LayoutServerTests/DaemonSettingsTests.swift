import Foundation
import LayoutServer
import Logging
import Testing

/// The configuration file's reading: every key, lists, and the errors an operator's typo gets.
@Suite struct DaemonSettingsTests {
    static func settings(_ text: String) throws(ConfigurationError) -> DaemonSettings {
        var settings = DaemonSettings()
        try settings.apply(ConfigFile(path: "layoutd.conf", text: text))
        return settings
    }

    @Test func everyKeySetsItsSetting() throws {
        let settings = try Self.settings("""
            # the service's own
            socket = /run/layoutd/layoutd.sock
            font = /srv/fonts
            font = /srv/more fonts/A.ttf
            font-family = sans-serif
            no-default-fonts = yes
            default-family = "DejaVu Sans"
            fallback = Noto Sans, Noto Color Emoji
            fallback = DejaVu Sans
            max-frame-bytes = 1_048_576
            max-reply-bytes = 2048
            max-text = 1000
            request-budget-ms = 250
            idle-timeout = 12.5
            frame-timeout = 3
            max-connections = 10
            max-connections-per-user = 2
            max-in-flight = 4
            max-unsent-bytes = 8192
            threads = 3
            reload-timeout = 5
            max-picture-pixels = 1000000
            tag-styles = /etc/layoutd/tag-styles.json
            metrics-listen = 127.0.0.1:9464
            log-level = debug
            """)
        #expect(settings.socket == "/run/layoutd/layoutd.sock")
        #expect(settings.fonts == ["/srv/fonts", "/srv/more fonts/A.ttf"])
        #expect(settings.fontFamilies == ["sans-serif"])
        #expect(settings.noDefaultFonts)
        #expect(settings.defaultFamily == "DejaVu Sans")
        #expect(settings.fallback == ["Noto Sans", "Noto Color Emoji", "DejaVu Sans"])
        #expect(settings.maxFrameBytes == 1 << 20 && settings.maxReplyBytes == 2048 && settings.maxText == 1000)
        #expect(settings.requestBudgetMs == 250 && settings.idleTimeout == 12.5 && settings.frameTimeout == 3)
        #expect(settings.maxConnections == 10 && settings.maxConnectionsPerUser == 2 && settings.maxInFlight == 4)
        #expect(settings.maxUnsentBytes == 8192 && settings.threads == 3)
        #expect(settings.reloadTimeout == 5 && settings.maxPicturePixels == 1_000_000)
        #expect(settings.tagStyles == "/etc/layoutd/tag-styles.json" && settings.metricsListen == "127.0.0.1:9464")
        #expect(settings.logLevel == .debug)
        let configuration = settings.serverConfiguration
        #expect(configuration.maxFrameBytes == 1 << 20 && configuration.workerThreads == 3 && !configuration.loadDefaultFonts)
        #expect(configuration.reloadTimeoutSeconds == 5 && configuration.maxPicturePixels == 1_000_000)
    }

    /// The keys against the options `layoutd --help` lists (less those that are not settings).
    @Test func everyKeyIsADaemonOptionAndTheOtherWayRound() throws {
        let help = try run(Daemon.binary("layoutd"), ["--help"])
        #expect(help.status == 0)
        let options = Set(help.out.matches(of: /--([a-z][a-z-]*)/).map { String($0.output.1) })
            .subtracting(["help", "version", "config", "check-config"])
        #expect(options.count >= 20)
        #expect(Set(DaemonSettings.keyNames) == options)
    }

    @Test func theShippedFileReadsAndChangesOnlyTheTagStyles() throws {
        let path = repositoryRoot.appendingPathComponent("packaging/layoutd.conf").path
        var settings = DaemonSettings()
        try settings.apply(ConfigFile(path: path, text: String(contentsOfFile: path, encoding: .utf8)))
        var expected = DaemonSettings()
        expected.tagStyles = "/etc/layoutd/tag-styles.json"
        #expect(settings == expected)
    }

    @Test func anEmptyFileChangesNothing() throws {
        #expect(try Self.settings("\n# nothing here\n   \n") == DaemonSettings())
    }

    @Test func anUnknownKeyNamesTheLineAndTheNearestKey() {
        // Each must throw: a `do` whose `catch` alone checks would pass on a file that was accepted.
        let unknown = #expect(throws: ConfigurationError.self) { try Self.settings("threads = 2\nmax-frame = 4096\n") }
        #expect(unknown?.description.hasPrefix("layoutd.conf:2: unknown key \"max-frame\" (did you mean max-frame-bytes?)") == true,
                "\(String(describing: unknown))")
        let misspelt = #expect(throws: ConfigurationError.self) { try Self.settings("deafult-family = Noto Sans") }
        #expect(misspelt?.description.contains("did you mean default-family?") == true, "\(String(describing: misspelt))")
    }

    @Test func aBadValueNamesTheLineAndTheKey() {
        let cases: [(String, String)] = [
            ("threads = two", "layoutd.conf:1: threads: \"two\" is not a whole number"),
            ("\n\nidle-timeout = soon", "layoutd.conf:3: idle-timeout: \"soon\" is not a number of seconds"),
            ("idle-timeout = inf", "layoutd.conf:1: idle-timeout: \"inf\" is not a number of seconds"),
            ("no-default-fonts = maybe", "layoutd.conf:1: no-default-fonts: \"maybe\" is not true or false"),
            ("log-level = loud", "layoutd.conf:1: log-level: must be one of"),
            ("fallback = Noto Sans,,DejaVu Sans", "layoutd.conf:1: fallback: expected family names"),
            ("socket =", "layoutd.conf:1: socket: the value is empty"),
            ("just words", "layoutd.conf:1: expected key = value"),
            ("= 3", "layoutd.conf:1: a value with no key"),
        ]
        for (text, expected) in cases {
            do {
                _ = try Self.settings(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.hasPrefix(expected), "\(text): \(error)")
            }
        }
    }

    @Test func rangesAreCheckedByTheirKeyNames() {
        let cases: [(String, (inout DaemonSettings) -> Void)] = [
            ("max-frame-bytes must be in", { $0.maxFrameBytes = 10 }),
            ("frame-timeout must be in", { $0.frameTimeout = 0 }),
            ("reload-timeout must be in", { $0.reloadTimeout = .infinity }),
            ("threads must be in 1...256", { $0.threads = 100_000 }),
            ("max-picture-pixels must be in", { $0.maxPicturePixels = 0 }),
            ("batch-workers must be in 0...256", { $0.batchWorkers = 257 }),
            ("batch-workers must be in 0...256", { $0.batchWorkers = -1 }),
        ]
        for (message, change) in cases {
            var settings = DaemonSettings()
            change(&settings)
            let error = #expect(throws: ConfigurationError.self, "\(message)") { try settings.serverConfiguration.validate() }
            #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }
}
