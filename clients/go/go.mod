module layoutd/clients/go

go 1.19

require google.golang.org/protobuf v1.28.1
