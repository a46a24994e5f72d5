import Glibc

/// Where glibc's malloc takes a large block from. By default a block of 128 KiB or
/// more is mapped on its own and unmapped when freed, but the threshold rises to the
/// largest such block freed (up to 32 MiB): after one 4 MiB payload, every later one
/// comes from the heap, whose freed holes stay resident. Four zigbee2mqtt lists of
/// 3.9 MiB left `discover` 12 MB more resident that way (BENCHMARKS.md).
public enum LargeAllocations {
    /// Blocks of at least this many bytes are mapped on their own (glibc's initial threshold).
    public static let ownMappingBytes: Int32 = 128 << 10

    /// Fixes the threshold at `ownMappingBytes` (`mallopt(M_MMAP_THRESHOLD)`), so a
    /// large payload's memory goes back to the system as soon as it is freed. Looked up
    /// at run time (the Glibc module does not declare `mallopt`); without it, nothing changes.
    public static func returnToTheSystemWhenFreed() {
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD, <malloc.h>
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, ownMappingBytes)
    }
}
