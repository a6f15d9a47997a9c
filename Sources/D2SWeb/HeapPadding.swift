#if canImport(Glibc)
  import Glibc
#endif

/// The C heap's settings for a server that makes and frees the same pages all day.
///
/// glibc gives the free memory at the top of each thread's heap back to the kernel once it
/// passes its trim threshold, and takes it again for the next page: pages faulted in anew
/// (about 1.2 a 50-row list page at 64 connections, each zeroed by the kernel) and two system
/// calls, on every page. Keeping a megabyte at the top of each heap when it is trimmed ends
/// that, at a bounded cost: at most a megabyte of each heap glibc makes (eight a core at most)
/// stays mapped.
///
/// Setting the padding also fixes glibc's threshold for serving a block by `mmap`, which it
/// otherwise raises after the first big block is freed. It is set to 4 MB, so a long page's
/// buffer (a 1,000-row list) comes from the heap too, not from the kernel anew each time.
enum HeapPadding {
  /// The memory kept at the top of each heap when it is trimmed.
  static let topPad = 1 << 20

  /// The smallest block glibc asks the kernel for by itself.
  static let mmapThreshold = 4 << 20

  /// Sets both for the whole process (glibc; elsewhere nothing).
  static func apply() {
    #if canImport(Glibc)
      _ = mallopt(topPadParameter, Int32(topPad))
      _ = mallopt(mmapThresholdParameter, Int32(mmapThreshold))
    #endif
  }

  #if canImport(Glibc)
    /// `M_TOP_PAD` of glibc's `<malloc.h>`, which Swift's Glibc module does not include.
    private static let topPadParameter: Int32 = -2
    /// `M_MMAP_THRESHOLD` of `<malloc.h>`.
    private static let mmapThresholdParameter: Int32 = -3
  #endif
}

#if canImport(Glibc)
  /// glibc's `int mallopt(int param, int value)` (`<malloc.h>`).
  @_silgen_name("mallopt")
  private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
