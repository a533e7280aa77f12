// Package main imports each library the evaluation asks about, so that `go mod tidy` keeps them as direct
// requirements. It is never built or run by the evaluation.
package main

import (
	_ "github.com/gin-gonic/gin"
	_ "github.com/google/uuid"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/assert"
	_ "go.uber.org/zap"
	_ "golang.org/x/sync/errgroup"
)

func main() {}
