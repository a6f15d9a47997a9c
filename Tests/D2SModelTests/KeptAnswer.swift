import Foundation

/// Whether a read is answered from what was kept (`answers` moves by one) within 30 s of pairs
/// of reads, the pairs 5 ms apart. Any commit on the server, another test's included (the
/// suites run at once against one server), changes the snapshot, so a read may read anew; the
/// read right after it is answered from what it kept unless another commit came between the
/// two. (A number of tries, not a time, ran out while other suites committed without a pause.)
func answersFromKept(_ answers: () -> Int, read: () throws -> Void) rethrows -> Bool {
  let deadline = ContinuousClock.now + .seconds(30)
  while ContinuousClock.now < deadline {
    for _ in 0..<2 {
      let before = answers()
      try read()
      if answers() == before + 1 { return true }
    }
    Thread.sleep(forTimeInterval: 0.005)
  }
  return false
}
