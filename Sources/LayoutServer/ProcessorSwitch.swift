import Foundation
import LayoutEngine
import Synchronization

/// The processor new requests go to, swapped whole by a reload. A request takes the current
/// one when its frame is complete and keeps it to the end, so requests in flight finish on the
/// fonts and configuration they started with.
public final class ProcessorSwitch: Sendable {
    /// Makes what a reload swaps in: a layouter on freshly loaded fonts, and the tag styles.
    /// It throws when they do not load, and the daemon carries on as it was.
    public typealias Loader = @Sendable () throws -> (layouter: ParagraphLayouter, tagStyles: TagStyleTable)

    private let state: Mutex<RequestProcessor>
    private let loader: Loader?
    /// One reload at a time: two SIGHUPs must not interleave their swaps.
    private let reloading = Mutex(())

    init(_ processor: RequestProcessor, loader: Loader?) {
        state = Mutex(processor)
        self.loader = loader
    }

    public var current: RequestProcessor { state.withLock { $0 } }

    /// Loads a new set and swaps it in; on failure the old set stays and the error is returned.
    public func reload() -> Result<RequestProcessor, Error> {
        reloading.withLock { _ in
            guard let loader else { return .failure(ReloadError("this daemon was started without a way to reload")) }
            do {
                let (layouter, tagStyles) = try loader()
                let old = current
                var configuration = old.configuration
                configuration.tagStyles = tagStyles
                let fresh = RequestProcessor(layouter: layouter, configuration: configuration, stats: old.stats, logger: old.logger)
                state.withLock { $0 = fresh }
                return .success(fresh)
            } catch {
                return .failure(error)
            }
        }
    }
}

public struct ReloadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
