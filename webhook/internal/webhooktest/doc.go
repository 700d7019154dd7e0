// Package webhooktest is what the tests of the webhook packages share: a
// Runner made of functions standing for hooks, and a webhook server on
// loopback that stops when the test ends.
package webhooktest
