import CSQLite
import Foundation

/// An SQLite VFS for fault tests, `d2s-faulty`: the default VFS, except that while
/// ``failingWrites`` is on, every write to a main database file or its WAL fails with
/// `SQLITE_IOERR_WRITE`, as a failing disk would. A database opened with
/// `sqlite:PATH?vfs=d2s-faulty` uses it; nothing else does.
enum FaultyVFS {
  static let name = "d2s-faulty"
  private static let lock = NSLock()
  nonisolated(unsafe) private static var real: UnsafeMutablePointer<sqlite3_vfs>?
  nonisolated(unsafe) private static var failing = false
  /// Our copies of the default VFS's I/O method tables, and the tables they copy.
  nonisolated(unsafe) private static var copies:
    [UnsafeRawPointer: UnsafeMutablePointer<sqlite3_io_methods>] = [:]
  nonisolated(unsafe) private static var originals:
    [UnsafeRawPointer: UnsafePointer<sqlite3_io_methods>] = [:]

  /// Whether writes fail now.
  static var failingWrites: Bool {
    get { lock.withLock { failing } }
    set { lock.withLock { failing = newValue } }
  }

  /// Registers the VFS once (not as the default).
  static func register() {
    lock.lock()
    defer { lock.unlock() }
    guard real == nil, let found = sqlite3_vfs_find(nil) else { return }
    real = found
    let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
    // The same pAppData: the default's other methods work as they are.
    vfs.initialize(to: found.pointee)
    vfs.pointee.zName = UnsafePointer(strdup(name))
    vfs.pointee.pNext = nil
    vfs.pointee.xOpen = { _, name, file, flags, outFlags in
      guard let real = FaultyVFS.lock.withLock({ FaultyVFS.real }), let file else {
        return SQLITE_ERROR
      }
      let status = real.pointee.xOpen(real, name, file, flags, outFlags)
      let faulty = flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL) != 0
      if status == SQLITE_OK, faulty, let methods = file.pointee.pMethods {
        file.pointee.pMethods = UnsafePointer(FaultyVFS.copy(of: methods))
      }
      return status
    }
    sqlite3_vfs_register(vfs, 0)
  }

  /// A copy of `methods` whose `xWrite` fails while ``failingWrites`` is on.
  private static func copy(of methods: UnsafePointer<sqlite3_io_methods>) -> UnsafeMutablePointer<
    sqlite3_io_methods
  > {
    lock.lock()
    defer { lock.unlock() }
    if let copy = copies[UnsafeRawPointer(methods)] { return copy }
    let copy = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    copy.initialize(to: methods.pointee)
    copy.pointee.xWrite = { file, buffer, amount, offset in
      guard let file, let methods = file.pointee.pMethods,
        let original = FaultyVFS.lock.withLock({ FaultyVFS.originals[UnsafeRawPointer(methods)] })
      else { return SQLITE_ERROR }
      if FaultyVFS.failingWrites { return SQLITE_IOERR | (3 << 8) }  // SQLITE_IOERR_WRITE
      return original.pointee.xWrite(file, buffer, amount, offset)
    }
    copies[UnsafeRawPointer(methods)] = copy
    originals[UnsafeRawPointer(copy)] = methods
    return copy
  }
}
