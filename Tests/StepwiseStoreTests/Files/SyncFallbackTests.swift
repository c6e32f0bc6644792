import Foundation
import StepwiseStore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``SyncFallback``: Darwin's `F_BARRIERFSYNC` → `F_FULLFSYNC` → `fsync` chain settles for a
/// weaker call only when the stronger one is unsupported; run here with stand-in calls, since
/// the chain and the decision are the same code on every platform.
@Suite("SyncFallback: a weaker sync only where the stronger one is unsupported")
struct SyncFallbackTests {
    /// Stand-in calls that fail with the given errnos in turn (0: succeed), recording how many ran.
    final class Calls: @unchecked Sendable {
        // @unchecked: used by one test's thread only.
        var ran = 0
        func make(_ results: [Int32]) -> [() -> Int32] {
            results.map { code in
                {
                    self.ran += 1
                    guard code != 0 else { return 0 }
                    errno = code
                    return -1
                }
            }
        }
    }

    @Test("ENOTSUP, EOPNOTSUPP, EINVAL and ENOTTY mean unsupported; EIO, ENOSPC, EBADF and EINTR don't")
    func whichErrorsMeanUnsupported() {
        for code in [ENOTSUP, EOPNOTSUPP, EINVAL, ENOTTY] { #expect(SyncFallback.meansUnsupported(code), "\(code)") }
        for code in [EIO, ENOSPC, EBADF, EINTR, EACCES, EROFS] {
            #expect(!SyncFallback.meansUnsupported(code), "\(code)")
        }
    }

    @Test("an unsupported full sync falls back to fsync", arguments: [ENOTSUP, EINVAL, ENOTTY])
    func unsupportedFallsBack(code: Int32) {
        let calls = Calls()
        #expect(SyncFallback.firstSupported(calls.make([code, 0])) == 0)
        #expect(calls.ran == 2)
    }

    @Test("an I/O error from the full sync is the sync's error: fsync isn't tried", arguments: [EIO, ENOSPC, EBADF])
    func ioErrorDoesNotFallBack(code: Int32) {
        let calls = Calls()
        #expect(SyncFallback.firstSupported(calls.make([code, 0])) == code)
        #expect(calls.ran == 1)
    }

    @Test("an ordering sync: barrier unsupported, then full sync unsupported, then fsync's own error")
    func orderingChain() {
        let calls = Calls()
        #expect(SyncFallback.firstSupported(calls.make([ENOTSUP, EINVAL, 0])) == 0)
        #expect(calls.ran == 3)
        let failing = Calls()
        #expect(SyncFallback.firstSupported(failing.make([ENOTSUP, EIO, 0])) == EIO)
        #expect(failing.ran == 2)
        // The last call unsupported too: its errno is the answer (nothing weaker is left).
        #expect(SyncFallback.firstSupported(Calls().make([ENOTSUP, EINVAL])) == EINVAL)
    }

    @Test("the first call that succeeds ends the chain")
    func firstSuccessEndsTheChain() {
        let calls = Calls()
        #expect(SyncFallback.firstSupported(calls.make([0, EIO])) == 0)
        #expect(calls.ran == 1)
    }
}
