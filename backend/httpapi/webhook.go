package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/webhook"
)

// withWebhooks answers 503 unavailable when webhooks are not configured
// ([Options.Webhooks] nil), before the body is read.
func (h *handler) withWebhooks(next echo.HandlerFunc) echo.HandlerFunc {
	if h.webhooks != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "webhooks are not configured on this deployment")
	}
}

// getWebhook serves GET /api/v1/webhook: the configuration with its
// secret masked and the newest delivery; without a webhook, 200 with url
// null and enabled false.
func (h *handler) getWebhook(c echo.Context) error {
	v, err := h.webhooks.Get(c.Request().Context(), principalOf(c).Account.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newWebhookView(v.Config, v.Last, false))
}

// putWebhook serves PUT /api/v1/webhook: 200 with the configuration, the
// secret in full when this call made it.
func (h *handler) putWebhook(c echo.Context) error {
	var in webhookRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	ctx, accountID := c.Request().Context(), principalOf(c).Account.ID
	cfg, revealed, err := h.webhooks.Put(ctx, accountID, webhook.Update{URL: in.URL, Enabled: in.Enabled, RotateSecret: in.RotateSecret})
	if err != nil {
		return err
	}
	v, err := h.webhooks.Get(ctx, accountID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newWebhookView(cfg, v.Last, revealed))
}

// listDeliveries serves GET /api/v1/webhook/deliveries?limit: the
// newest deliveries first.
func (h *handler) listDeliveries(c echo.Context) error {
	limit, err := queryInt(c, "limit")
	if err != nil {
		return err
	}
	list, err := h.webhooks.Deliveries(c.Request().Context(), principalOf(c).Account.ID, limit)
	if err != nil {
		return err
	}
	out := deliveryList{Deliveries: make([]DeliveryView, 0, len(list))}
	for i := range list {
		out.Deliveries = append(out.Deliveries, newDeliveryView(&list[i]))
	}
	return c.JSON(http.StatusOK, out)
}

// redeliver serves POST /api/v1/webhook/deliveries/{deliveryId}/redeliver:
// 202 with the delivery, queued to be attempted at once.
func (h *handler) redeliver(c echo.Context) error {
	d, err := h.webhooks.Redeliver(c.Request().Context(), principalOf(c).Account.ID, c.Param("deliveryId"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, deliveryResult{Delivery: newDeliveryView(d)})
}

// testWebhook serves POST /api/v1/webhook/test: 200 with the test
// delivery after its one attempt, delivered or failed.
func (h *handler) testWebhook(c echo.Context) error {
	d, err := h.webhooks.Test(c.Request().Context(), principalOf(c).Account.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, deliveryResult{Delivery: newDeliveryView(d)})
}
