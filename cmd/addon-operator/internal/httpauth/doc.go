// Package httpauth guards the operator's HTTP port as controller-runtime
// guards a manager's metrics (ADDON_OPERATOR_HTTP_AUTH=kubernetes): a
// request's bearer token is reviewed by the apiserver (a TokenReview), and
// the user it names must be allowed to get the request's path (a
// SubjectAccessReview of a non-resource URL). Decisions are kept briefly,
// in a bounded cache, so that a scraper costs no reviews on most scrapes.
package httpauth
