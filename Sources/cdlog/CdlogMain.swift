import CLISupport

@main
struct CdlogMain {
    static func main() { CommandRunner.main(Cdlog.self) }
}
