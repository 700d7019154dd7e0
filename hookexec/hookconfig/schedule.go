package hookconfig

import (
	"encoding/json"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

type scheduleRaw struct {
	Name                 string    `json:"name"`
	Crontab              string    `json:"crontab"`
	AllowFailure         *flexBool `json:"allowFailure"`
	Queue                string    `json:"queue"`
	IncludeSnapshotsFrom []string  `json:"includeSnapshotsFrom"`
	Group                string    `json:"group"`
}

// parseSchedules reads `schedule`: in v1 every field is checked, in the older
// form unknown fields are ignored as they always were.
func parseSchedules(v bindings.Version, raw json.RawMessage) ([]bindings.ScheduleBinding, error) {
	decode := decodeStrict
	if v == bindings.V0 {
		decode = decodeLoose
	}
	return parseBindings[bindings.ScheduleBinding, scheduleRaw](string(bindings.Schedule), raw, decode)
}

func (r scheduleRaw) binding(field string) (bindings.ScheduleBinding, error) {
	if err := checkCrontab(field+".crontab", r.Name, r.Crontab); err != nil {
		return bindings.ScheduleBinding{}, err
	}
	queue, err := queueOr(field+".queue", r.Queue)
	if err != nil {
		return bindings.ScheduleBinding{}, err
	}
	if err := checkBindingName(field+".name", r.Name); err != nil {
		return bindings.ScheduleBinding{}, err
	}
	if err := checkQueueName(field+".group", r.Group); err != nil {
		return bindings.ScheduleBinding{}, err
	}
	name := r.Name
	if name == "" {
		name = string(bindings.Schedule)
	}
	return bindings.ScheduleBinding{
		Name:                 name,
		Crontab:              r.Crontab,
		AllowFailure:         boolOr(r.AllowFailure, false),
		Queue:                queue,
		IncludeSnapshotsFrom: r.IncludeSnapshotsFrom,
		Group:                r.Group,
	}, nil
}
