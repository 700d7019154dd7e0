package server_test

import "github.com/addon-actors/addon-operator/webhook/server"

func serverConfig(r funcRunner) server.Config { return server.Config{Runner: r} }
