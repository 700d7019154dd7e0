package server_test

import (
	"github.com/addon-actors/addon-operator/webhook/internal/webhooktest"
	"github.com/addon-actors/addon-operator/webhook/server"
)

func serverConfig(r webhooktest.Funcs) server.Config { return server.Config{Runner: r} }
