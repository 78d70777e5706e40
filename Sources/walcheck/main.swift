#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import CDLogCore
printError("walcheck: not yet implemented")
exit(ExitStatus.failure.rawValue)
