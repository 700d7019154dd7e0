module github.com/addon-actors/addon-operator

go 1.26

require github.com/asynkron/protoactor-go v0.0.0-20240822202345-3c0e61ca19c9 // indirect
