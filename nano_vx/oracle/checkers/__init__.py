"""The checkers of a choreography certificate (docs/certificate.md): small programs that read
its JSON and decide it with integers and lists only. They import nothing from the compiler
(tests/oracle/test_checkers.py reads their imports), so trusting a certificate means trusting
these modules and nothing else; each also runs as a script."""
