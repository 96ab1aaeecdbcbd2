/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as AdminTypes from './admin.types.js';

export type SavedItemsRunBulkQueryMutationVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
}>;


export type SavedItemsRunBulkQueryMutation = { bulkOperationRunQuery?: AdminTypes.Maybe<{ bulkOperation?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id'>>, userErrors: Array<Pick<AdminTypes.BulkOperationUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsBulkOperationStatusQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsBulkOperationStatusQuery = { bulkOperation?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id' | 'status' | 'objectCount' | 'errorCode' | 'url'>> };

export type SavedItemsBillingCurrentSubscriptionsQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type SavedItemsBillingCurrentSubscriptionsQuery = { currentAppInstallation: { activeSubscriptions: Array<(
      Pick<AdminTypes.AppSubscription, 'name' | 'status'>
      & { lineItems: Array<{ plan: { pricingDetails: (
            { __typename: 'AppRecurringPricing' }
            & Pick<AdminTypes.AppRecurringPricing, 'planHandle'>
          ) | { __typename: 'AppUsagePricing' } } }> }
    )> } };

export type SavedItemsFlowTriggerMutationVariables = AdminTypes.Exact<{
  handle?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
  payload?: AdminTypes.InputMaybe<AdminTypes.Scalars['JSON']['input']>;
}>;


export type SavedItemsFlowTriggerMutation = { flowTriggerReceive?: AdminTypes.Maybe<{ userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type SavedItemsVariantProductsQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsVariantProductsQuery = { nodes: Array<AdminTypes.Maybe<Pick<AdminTypes.AbandonedCheckout, 'id'> | Pick<AdminTypes.AbandonedCheckoutLineItem, 'id'> | Pick<AdminTypes.Abandonment, 'id'> | Pick<AdminTypes.AddAllProductsOperation, 'id'> | Pick<AdminTypes.AdditionalFee, 'id'> | Pick<AdminTypes.AnalyticsAnnotation, 'id'> | Pick<AdminTypes.AnalyticsTarget, 'id'> | Pick<AdminTypes.App, 'id'> | Pick<AdminTypes.AppCatalog, 'id'> | Pick<AdminTypes.AppCredit, 'id'> | Pick<AdminTypes.AppInstallation, 'id'> | Pick<AdminTypes.AppPurchaseOneTime, 'id'> | Pick<AdminTypes.AppRevenueAttributionRecord, 'id'> | Pick<AdminTypes.AppSubscription, 'id'> | Pick<AdminTypes.AppUsageRecord, 'id'> | Pick<AdminTypes.Article, 'id'> | Pick<AdminTypes.BasicEvent, 'id'> | Pick<AdminTypes.Blog, 'id'> | Pick<AdminTypes.BulkOperation, 'id'> | Pick<AdminTypes.BusinessEntity, 'id'> | Pick<AdminTypes.CalculatedOrder, 'id'> | Pick<AdminTypes.CartTransform, 'id'> | Pick<AdminTypes.CashDrawer, 'id'> | Pick<AdminTypes.CashManagementCustomReasonCode, 'id'> | Pick<AdminTypes.CashManagementDefaultReasonCode, 'id'> | Pick<AdminTypes.CashManagementSystemReasonCode, 'id'> | Pick<AdminTypes.CashTrackingAdjustment, 'id'> | Pick<AdminTypes.CashTrackingSession, 'id'> | Pick<AdminTypes.CatalogCsvOperation, 'id'> | Pick<AdminTypes.Channel, 'id'> | Pick<AdminTypes.ChannelDefinition, 'id'> | Pick<AdminTypes.ChannelInformation, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfiguration, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfigurationOverride, 'id'> | Pick<AdminTypes.CheckoutProfile, 'id'> | Pick<AdminTypes.Collection, 'id'> | Pick<AdminTypes.CollectionConditionsSource, 'id'> | Pick<AdminTypes.CollectionSubCollectionsSource, 'id'> | Pick<AdminTypes.Comment, 'id'> | Pick<AdminTypes.CommentEvent, 'id'> | Pick<AdminTypes.Company, 'id'> | Pick<AdminTypes.CompanyAddress, 'id'> | Pick<AdminTypes.CompanyContact, 'id'> | Pick<AdminTypes.CompanyContactRole, 'id'> | Pick<AdminTypes.CompanyContactRoleAssignment, 'id'> | Pick<AdminTypes.CompanyLocation, 'id'> | Pick<AdminTypes.CompanyLocationCatalog, 'id'> | Pick<AdminTypes.CompanyLocationStaffMemberAssignment, 'id'> | Pick<AdminTypes.ConsentPolicy, 'id'> | Pick<AdminTypes.CurrencyExchangeAdjustment, 'id'> | Pick<AdminTypes.Customer, 'id'> | Pick<AdminTypes.CustomerAccountAppExtensionPage, 'id'> | Pick<AdminTypes.CustomerAccountNativePage, 'id'> | Pick<AdminTypes.CustomerPaymentMethod, 'id'> | Pick<AdminTypes.CustomerSegmentMembersQuery, 'id'> | Pick<AdminTypes.CustomerVisit, 'id'> | Pick<AdminTypes.DeliveryCarrierService, 'id'> | Pick<AdminTypes.DeliveryCondition, 'id'> | Pick<AdminTypes.DeliveryCountry, 'id'> | Pick<AdminTypes.DeliveryCustomization, 'id'> | Pick<AdminTypes.DeliveryLocationGroup, 'id'> | Pick<AdminTypes.DeliveryMethod, 'id'> | Pick<AdminTypes.DeliveryMethodDefinition, 'id'> | Pick<AdminTypes.DeliveryParticipant, 'id'> | Pick<AdminTypes.DeliveryProfile, 'id'> | Pick<AdminTypes.DeliveryProfileItem, 'id'> | Pick<AdminTypes.DeliveryPromiseParticipant, 'id'> | Pick<AdminTypes.DeliveryPromiseProvider, 'id'> | Pick<AdminTypes.DeliveryProvince, 'id'> | Pick<AdminTypes.DeliveryRateDefinition, 'id'> | Pick<AdminTypes.DeliveryZone, 'id'> | Pick<AdminTypes.DiscountAutomaticBxgy, 'id'> | Pick<AdminTypes.DiscountAutomaticNode, 'id'> | Pick<AdminTypes.DiscountCodeNode, 'id'> | Pick<AdminTypes.DiscountNode, 'id'> | Pick<AdminTypes.DiscountRedeemCodeBulkCreation, 'id'> | Pick<AdminTypes.Domain, 'id'> | Pick<AdminTypes.DraftOrder, 'id'> | Pick<AdminTypes.DraftOrderLineItem, 'id'> | Pick<AdminTypes.DraftOrderTag, 'id'> | Pick<AdminTypes.Duty, 'id'> | Pick<AdminTypes.ExchangeLineItem, 'id'> | Pick<AdminTypes.ExternalVideo, 'id'> | Pick<AdminTypes.Fulfillment, 'id'> | Pick<AdminTypes.FulfillmentConstraintRule, 'id'> | Pick<AdminTypes.FulfillmentEvent, 'id'> | Pick<AdminTypes.FulfillmentHold, 'id'> | Pick<AdminTypes.FulfillmentLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrder, 'id'> | Pick<AdminTypes.FulfillmentOrderDestination, 'id'> | Pick<AdminTypes.FulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrderMerchantRequest, 'id'> | Pick<AdminTypes.GenericFile, 'id'> | Pick<AdminTypes.GiftCard, 'id'> | Pick<AdminTypes.GiftCardCashOutTransaction, 'id'> | Pick<AdminTypes.GiftCardCreditTransaction, 'id'> | Pick<AdminTypes.GiftCardDebitTransaction, 'id'> | Pick<AdminTypes.IdentityProviderSubject, 'id'> | Pick<AdminTypes.InventoryAdjustmentGroup, 'id'> | Pick<AdminTypes.InventoryItem, 'id'> | Pick<AdminTypes.InventoryItemMeasurement, 'id'> | Pick<AdminTypes.InventoryLevel, 'id'> | Pick<AdminTypes.InventoryQuantity, 'id'> | Pick<AdminTypes.InventoryShipment, 'id'> | Pick<AdminTypes.InventoryShipmentLineItem, 'id'> | Pick<AdminTypes.InventoryTransfer, 'id'> | Pick<AdminTypes.InventoryTransferLineItem, 'id'> | Pick<AdminTypes.LineItem, 'id'> | Pick<AdminTypes.LineItemGroup, 'id'> | Pick<AdminTypes.Location, 'id'> | Pick<AdminTypes.MailingAddress, 'id'> | Pick<AdminTypes.Market, 'id'> | Pick<AdminTypes.MarketCatalog, 'id'> | Pick<AdminTypes.MarketRegionCountry, 'id'> | Pick<AdminTypes.MarketRegionSubdivision, 'id'> | Pick<AdminTypes.MarketWebPresence, 'id'> | Pick<AdminTypes.MarketingActivity, 'id'> | Pick<AdminTypes.MarketingEvent, 'id'> | Pick<AdminTypes.MediaImage, 'id'> | Pick<AdminTypes.Menu, 'id'> | Pick<AdminTypes.Metafield, 'id'> | Pick<AdminTypes.MetafieldDefinition, 'id'> | Pick<AdminTypes.Metaobject, 'id'> | Pick<AdminTypes.MetaobjectDefinition, 'id'> | Pick<AdminTypes.Model3d, 'id'> | Pick<AdminTypes.OnlineStoreTheme, 'id'> | Pick<AdminTypes.Order, 'id'> | Pick<AdminTypes.OrderAdjustment, 'id'> | Pick<AdminTypes.OrderAttributionDefinition, 'id'> | Pick<AdminTypes.OrderCancelJobResult, 'id'> | Pick<AdminTypes.OrderCreateMandatePaymentJobResult, 'id'> | Pick<AdminTypes.OrderDisputeSummary, 'id'> | Pick<AdminTypes.OrderEditSession, 'id'> | Pick<AdminTypes.OrderTransaction, 'id'> | Pick<AdminTypes.Page, 'id'> | Pick<AdminTypes.PaymentCustomization, 'id'> | Pick<AdminTypes.PaymentMandate, 'id'> | Pick<AdminTypes.PaymentSchedule, 'id'> | Pick<AdminTypes.PaymentTerms, 'id'> | Pick<AdminTypes.PaymentTermsTemplate, 'id'> | Pick<AdminTypes.PointOfSaleDevice, 'id'> | Pick<AdminTypes.PointOfSaleDevicePaymentSession, 'id'> | Pick<AdminTypes.PriceList, 'id'> | Pick<AdminTypes.Product, 'id'> | Pick<AdminTypes.ProductBundleOperation, 'id'> | Pick<AdminTypes.ProductDeleteOperation, 'id'> | Pick<AdminTypes.ProductDuplicateOperation, 'id'> | Pick<AdminTypes.ProductFeed, 'id'> | Pick<AdminTypes.ProductOption, 'id'> | Pick<AdminTypes.ProductOptionValue, 'id'> | Pick<AdminTypes.ProductSetOperation, 'id'> | Pick<AdminTypes.ProductTaxonomyNode, 'id'> | (
    Pick<AdminTypes.ProductVariant, 'id'>
    & { product: Pick<AdminTypes.Product, 'id'> }
  ) | Pick<AdminTypes.ProductVariantComponent, 'id'> | Pick<AdminTypes.Publication, 'id'> | Pick<AdminTypes.PublicationResourceOperation, 'id'> | Pick<AdminTypes.QuantityPriceBreak, 'id'> | Pick<AdminTypes.Refund, 'id'> | Pick<AdminTypes.RefundShippingLine, 'id'> | Pick<AdminTypes.Return, 'id'> | Pick<AdminTypes.ReturnLineItem, 'id'> | Pick<AdminTypes.ReturnReasonDefinition, 'id'> | Pick<AdminTypes.ReturnableFulfillment, 'id'> | Pick<AdminTypes.ReverseDelivery, 'id'> | Pick<AdminTypes.ReverseDeliveryLineItem, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrder, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderDisposition, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.SaleAdditionalFee, 'id'> | Pick<AdminTypes.SavedSearch, 'id'> | Pick<AdminTypes.ScriptTag, 'id'> | Pick<AdminTypes.Segment, 'id'> | Pick<AdminTypes.SellingPlan, 'id'> | Pick<AdminTypes.SellingPlanGroup, 'id'> | Pick<AdminTypes.ServerPixel, 'id'> | Pick<AdminTypes.ShippingLabel, 'id'> | Pick<AdminTypes.ShippingLabelPurchaseResult, 'id'> | Pick<AdminTypes.Shop, 'id'> | Pick<AdminTypes.ShopAddress, 'id'> | Pick<AdminTypes.ShopPolicy, 'id'> | Pick<AdminTypes.ShopifyPaymentsAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id'> | Pick<AdminTypes.ShopifyPaymentsBankAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsDispute, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFileUpload, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFulfillment, 'id'> | Pick<AdminTypes.ShopifyPaymentsPayout, 'id'> | Pick<AdminTypes.StaffMember, 'id'> | Pick<AdminTypes.StandardMetafieldDefinitionTemplate, 'id'> | Pick<AdminTypes.StoreCreditAccount, 'id'> | Pick<AdminTypes.StoreCreditAccountCreditTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitRevertTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitTransaction, 'id'> | Pick<AdminTypes.StorefrontAccessToken, 'id'> | Pick<AdminTypes.SubscriptionBillingAttempt, 'id'> | Pick<AdminTypes.SubscriptionContract, 'id'> | Pick<AdminTypes.SubscriptionDraft, 'id'> | Pick<AdminTypes.TaxonomyAttribute, 'id'> | Pick<AdminTypes.TaxonomyCategory, 'id'> | Pick<AdminTypes.TaxonomyChoiceListAttribute, 'id'> | Pick<AdminTypes.TaxonomyMeasurementAttribute, 'id'> | Pick<AdminTypes.TaxonomyValue, 'id'> | Pick<AdminTypes.TenderTransaction, 'id'> | Pick<AdminTypes.TransactionFee, 'id'> | Pick<AdminTypes.UnverifiedReturnLineItem, 'id'> | Pick<AdminTypes.UrlRedirect, 'id'> | Pick<AdminTypes.UrlRedirectImport, 'id'> | Pick<AdminTypes.Validation, 'id'> | Pick<AdminTypes.Video, 'id'> | Pick<AdminTypes.WebPixel, 'id'> | Pick<AdminTypes.WebhookSubscription, 'id'>>> };

export type SavedItemsInventoryItemVariantQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsInventoryItemVariantQuery = { inventoryItem?: AdminTypes.Maybe<{ variants?: AdminTypes.Maybe<{ nodes: Array<(
        Pick<AdminTypes.ProductVariant, 'id' | 'inventoryQuantity'>
        & { product: Pick<AdminTypes.Product, 'id'> }
      )> }> }> };

export type SavedItemsInsightsCatalogueQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsInsightsCatalogueQuery = { shop: Pick<AdminTypes.Shop, 'currencyCode'>, nodes: Array<AdminTypes.Maybe<Pick<AdminTypes.AbandonedCheckout, 'id'> | Pick<AdminTypes.AbandonedCheckoutLineItem, 'id'> | Pick<AdminTypes.Abandonment, 'id'> | Pick<AdminTypes.AddAllProductsOperation, 'id'> | Pick<AdminTypes.AdditionalFee, 'id'> | Pick<AdminTypes.AnalyticsAnnotation, 'id'> | Pick<AdminTypes.AnalyticsTarget, 'id'> | Pick<AdminTypes.App, 'id'> | Pick<AdminTypes.AppCatalog, 'id'> | Pick<AdminTypes.AppCredit, 'id'> | Pick<AdminTypes.AppInstallation, 'id'> | Pick<AdminTypes.AppPurchaseOneTime, 'id'> | Pick<AdminTypes.AppRevenueAttributionRecord, 'id'> | Pick<AdminTypes.AppSubscription, 'id'> | Pick<AdminTypes.AppUsageRecord, 'id'> | Pick<AdminTypes.Article, 'id'> | Pick<AdminTypes.BasicEvent, 'id'> | Pick<AdminTypes.Blog, 'id'> | Pick<AdminTypes.BulkOperation, 'id'> | Pick<AdminTypes.BusinessEntity, 'id'> | Pick<AdminTypes.CalculatedOrder, 'id'> | Pick<AdminTypes.CartTransform, 'id'> | Pick<AdminTypes.CashDrawer, 'id'> | Pick<AdminTypes.CashManagementCustomReasonCode, 'id'> | Pick<AdminTypes.CashManagementDefaultReasonCode, 'id'> | Pick<AdminTypes.CashManagementSystemReasonCode, 'id'> | Pick<AdminTypes.CashTrackingAdjustment, 'id'> | Pick<AdminTypes.CashTrackingSession, 'id'> | Pick<AdminTypes.CatalogCsvOperation, 'id'> | Pick<AdminTypes.Channel, 'id'> | Pick<AdminTypes.ChannelDefinition, 'id'> | Pick<AdminTypes.ChannelInformation, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfiguration, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfigurationOverride, 'id'> | Pick<AdminTypes.CheckoutProfile, 'id'> | Pick<AdminTypes.Collection, 'id'> | Pick<AdminTypes.CollectionConditionsSource, 'id'> | Pick<AdminTypes.CollectionSubCollectionsSource, 'id'> | Pick<AdminTypes.Comment, 'id'> | Pick<AdminTypes.CommentEvent, 'id'> | Pick<AdminTypes.Company, 'id'> | Pick<AdminTypes.CompanyAddress, 'id'> | Pick<AdminTypes.CompanyContact, 'id'> | Pick<AdminTypes.CompanyContactRole, 'id'> | Pick<AdminTypes.CompanyContactRoleAssignment, 'id'> | Pick<AdminTypes.CompanyLocation, 'id'> | Pick<AdminTypes.CompanyLocationCatalog, 'id'> | Pick<AdminTypes.CompanyLocationStaffMemberAssignment, 'id'> | Pick<AdminTypes.ConsentPolicy, 'id'> | Pick<AdminTypes.CurrencyExchangeAdjustment, 'id'> | Pick<AdminTypes.Customer, 'id'> | Pick<AdminTypes.CustomerAccountAppExtensionPage, 'id'> | Pick<AdminTypes.CustomerAccountNativePage, 'id'> | Pick<AdminTypes.CustomerPaymentMethod, 'id'> | Pick<AdminTypes.CustomerSegmentMembersQuery, 'id'> | Pick<AdminTypes.CustomerVisit, 'id'> | Pick<AdminTypes.DeliveryCarrierService, 'id'> | Pick<AdminTypes.DeliveryCondition, 'id'> | Pick<AdminTypes.DeliveryCountry, 'id'> | Pick<AdminTypes.DeliveryCustomization, 'id'> | Pick<AdminTypes.DeliveryLocationGroup, 'id'> | Pick<AdminTypes.DeliveryMethod, 'id'> | Pick<AdminTypes.DeliveryMethodDefinition, 'id'> | Pick<AdminTypes.DeliveryParticipant, 'id'> | Pick<AdminTypes.DeliveryProfile, 'id'> | Pick<AdminTypes.DeliveryProfileItem, 'id'> | Pick<AdminTypes.DeliveryPromiseParticipant, 'id'> | Pick<AdminTypes.DeliveryPromiseProvider, 'id'> | Pick<AdminTypes.DeliveryProvince, 'id'> | Pick<AdminTypes.DeliveryRateDefinition, 'id'> | Pick<AdminTypes.DeliveryZone, 'id'> | Pick<AdminTypes.DiscountAutomaticBxgy, 'id'> | Pick<AdminTypes.DiscountAutomaticNode, 'id'> | Pick<AdminTypes.DiscountCodeNode, 'id'> | Pick<AdminTypes.DiscountNode, 'id'> | Pick<AdminTypes.DiscountRedeemCodeBulkCreation, 'id'> | Pick<AdminTypes.Domain, 'id'> | Pick<AdminTypes.DraftOrder, 'id'> | Pick<AdminTypes.DraftOrderLineItem, 'id'> | Pick<AdminTypes.DraftOrderTag, 'id'> | Pick<AdminTypes.Duty, 'id'> | Pick<AdminTypes.ExchangeLineItem, 'id'> | Pick<AdminTypes.ExternalVideo, 'id'> | Pick<AdminTypes.Fulfillment, 'id'> | Pick<AdminTypes.FulfillmentConstraintRule, 'id'> | Pick<AdminTypes.FulfillmentEvent, 'id'> | Pick<AdminTypes.FulfillmentHold, 'id'> | Pick<AdminTypes.FulfillmentLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrder, 'id'> | Pick<AdminTypes.FulfillmentOrderDestination, 'id'> | Pick<AdminTypes.FulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrderMerchantRequest, 'id'> | Pick<AdminTypes.GenericFile, 'id'> | Pick<AdminTypes.GiftCard, 'id'> | Pick<AdminTypes.GiftCardCashOutTransaction, 'id'> | Pick<AdminTypes.GiftCardCreditTransaction, 'id'> | Pick<AdminTypes.GiftCardDebitTransaction, 'id'> | Pick<AdminTypes.IdentityProviderSubject, 'id'> | Pick<AdminTypes.InventoryAdjustmentGroup, 'id'> | Pick<AdminTypes.InventoryItem, 'id'> | Pick<AdminTypes.InventoryItemMeasurement, 'id'> | Pick<AdminTypes.InventoryLevel, 'id'> | Pick<AdminTypes.InventoryQuantity, 'id'> | Pick<AdminTypes.InventoryShipment, 'id'> | Pick<AdminTypes.InventoryShipmentLineItem, 'id'> | Pick<AdminTypes.InventoryTransfer, 'id'> | Pick<AdminTypes.InventoryTransferLineItem, 'id'> | Pick<AdminTypes.LineItem, 'id'> | Pick<AdminTypes.LineItemGroup, 'id'> | Pick<AdminTypes.Location, 'id'> | Pick<AdminTypes.MailingAddress, 'id'> | Pick<AdminTypes.Market, 'id'> | Pick<AdminTypes.MarketCatalog, 'id'> | Pick<AdminTypes.MarketRegionCountry, 'id'> | Pick<AdminTypes.MarketRegionSubdivision, 'id'> | Pick<AdminTypes.MarketWebPresence, 'id'> | Pick<AdminTypes.MarketingActivity, 'id'> | Pick<AdminTypes.MarketingEvent, 'id'> | Pick<AdminTypes.MediaImage, 'id'> | Pick<AdminTypes.Menu, 'id'> | Pick<AdminTypes.Metafield, 'id'> | Pick<AdminTypes.MetafieldDefinition, 'id'> | Pick<AdminTypes.Metaobject, 'id'> | Pick<AdminTypes.MetaobjectDefinition, 'id'> | Pick<AdminTypes.Model3d, 'id'> | Pick<AdminTypes.OnlineStoreTheme, 'id'> | Pick<AdminTypes.Order, 'id'> | Pick<AdminTypes.OrderAdjustment, 'id'> | Pick<AdminTypes.OrderAttributionDefinition, 'id'> | Pick<AdminTypes.OrderCancelJobResult, 'id'> | Pick<AdminTypes.OrderCreateMandatePaymentJobResult, 'id'> | Pick<AdminTypes.OrderDisputeSummary, 'id'> | Pick<AdminTypes.OrderEditSession, 'id'> | Pick<AdminTypes.OrderTransaction, 'id'> | Pick<AdminTypes.Page, 'id'> | Pick<AdminTypes.PaymentCustomization, 'id'> | Pick<AdminTypes.PaymentMandate, 'id'> | Pick<AdminTypes.PaymentSchedule, 'id'> | Pick<AdminTypes.PaymentTerms, 'id'> | Pick<AdminTypes.PaymentTermsTemplate, 'id'> | Pick<AdminTypes.PointOfSaleDevice, 'id'> | Pick<AdminTypes.PointOfSaleDevicePaymentSession, 'id'> | Pick<AdminTypes.PriceList, 'id'> | (
    Pick<AdminTypes.Product, 'title' | 'status' | 'tracksInventory' | 'totalInventory' | 'id'>
    & { priceRangeV2: { minVariantPrice: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
  ) | Pick<AdminTypes.ProductBundleOperation, 'id'> | Pick<AdminTypes.ProductDeleteOperation, 'id'> | Pick<AdminTypes.ProductDuplicateOperation, 'id'> | Pick<AdminTypes.ProductFeed, 'id'> | Pick<AdminTypes.ProductOption, 'id'> | Pick<AdminTypes.ProductOptionValue, 'id'> | Pick<AdminTypes.ProductSetOperation, 'id'> | Pick<AdminTypes.ProductTaxonomyNode, 'id'> | Pick<AdminTypes.ProductVariant, 'displayName' | 'price' | 'availableForSale' | 'id'> | Pick<AdminTypes.ProductVariantComponent, 'id'> | Pick<AdminTypes.Publication, 'id'> | Pick<AdminTypes.PublicationResourceOperation, 'id'> | Pick<AdminTypes.QuantityPriceBreak, 'id'> | Pick<AdminTypes.Refund, 'id'> | Pick<AdminTypes.RefundShippingLine, 'id'> | Pick<AdminTypes.Return, 'id'> | Pick<AdminTypes.ReturnLineItem, 'id'> | Pick<AdminTypes.ReturnReasonDefinition, 'id'> | Pick<AdminTypes.ReturnableFulfillment, 'id'> | Pick<AdminTypes.ReverseDelivery, 'id'> | Pick<AdminTypes.ReverseDeliveryLineItem, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrder, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderDisposition, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.SaleAdditionalFee, 'id'> | Pick<AdminTypes.SavedSearch, 'id'> | Pick<AdminTypes.ScriptTag, 'id'> | Pick<AdminTypes.Segment, 'id'> | Pick<AdminTypes.SellingPlan, 'id'> | Pick<AdminTypes.SellingPlanGroup, 'id'> | Pick<AdminTypes.ServerPixel, 'id'> | Pick<AdminTypes.ShippingLabel, 'id'> | Pick<AdminTypes.ShippingLabelPurchaseResult, 'id'> | Pick<AdminTypes.Shop, 'id'> | Pick<AdminTypes.ShopAddress, 'id'> | Pick<AdminTypes.ShopPolicy, 'id'> | Pick<AdminTypes.ShopifyPaymentsAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id'> | Pick<AdminTypes.ShopifyPaymentsBankAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsDispute, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFileUpload, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFulfillment, 'id'> | Pick<AdminTypes.ShopifyPaymentsPayout, 'id'> | Pick<AdminTypes.StaffMember, 'id'> | Pick<AdminTypes.StandardMetafieldDefinitionTemplate, 'id'> | Pick<AdminTypes.StoreCreditAccount, 'id'> | Pick<AdminTypes.StoreCreditAccountCreditTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitRevertTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitTransaction, 'id'> | Pick<AdminTypes.StorefrontAccessToken, 'id'> | Pick<AdminTypes.SubscriptionBillingAttempt, 'id'> | Pick<AdminTypes.SubscriptionContract, 'id'> | Pick<AdminTypes.SubscriptionDraft, 'id'> | Pick<AdminTypes.TaxonomyAttribute, 'id'> | Pick<AdminTypes.TaxonomyCategory, 'id'> | Pick<AdminTypes.TaxonomyChoiceListAttribute, 'id'> | Pick<AdminTypes.TaxonomyMeasurementAttribute, 'id'> | Pick<AdminTypes.TaxonomyValue, 'id'> | Pick<AdminTypes.TenderTransaction, 'id'> | Pick<AdminTypes.TransactionFee, 'id'> | Pick<AdminTypes.UnverifiedReturnLineItem, 'id'> | Pick<AdminTypes.UrlRedirect, 'id'> | Pick<AdminTypes.UrlRedirectImport, 'id'> | Pick<AdminTypes.Validation, 'id'> | Pick<AdminTypes.Video, 'id'> | Pick<AdminTypes.WebPixel, 'id'> | Pick<AdminTypes.WebhookSubscription, 'id'>>> };

export type SavedItemsRecordIdsFragment = { nodes: Array<Pick<AdminTypes.Metaobject, 'id'>>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> };

export type SavedItemsComplianceCustomerItemsQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsComplianceCustomerItemsQuery = { metaobjects: { nodes: Array<(
      Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
      & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } };

export type SavedItemsComplianceCustomerListsQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsComplianceCustomerListsQuery = { metaobjects: { nodes: Array<(
      Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
      & { context?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } };

export type SavedItemsComplianceCustomerItemIdsQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsComplianceCustomerItemIdsQuery = { metaobjects: { nodes: Array<Pick<AdminTypes.Metaobject, 'id'>>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } };

export type SavedItemsComplianceCustomerListIdsQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsComplianceCustomerListIdsQuery = { metaobjects: { nodes: Array<Pick<AdminTypes.Metaobject, 'id'>>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'> } };

export type SavedItemsComplianceDeleteRecordsMutationVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsComplianceDeleteRecordsMutation = { metaobjectBulkDelete?: AdminTypes.Maybe<{ job?: AdminTypes.Maybe<Pick<AdminTypes.Job, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsStorageUsageQueryVariables = AdminTypes.Exact<{
  items: AdminTypes.Scalars['String']['input'];
  lists: AdminTypes.Scalars['String']['input'];
  directories: AdminTypes.Scalars['String']['input'];
  insights: AdminTypes.Scalars['String']['input'];
}>;


export type SavedItemsStorageUsageQuery = { items?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectDefinition, 'metaobjectsCount'>>, lists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectDefinition, 'metaobjectsCount'>>, directories?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectDefinition, 'metaobjectsCount'>>, insights?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectDefinition, 'metaobjectsCount'>> };

export type SavedItemsReadInsightsQueryVariables = AdminTypes.Exact<{
  handle: AdminTypes.MetaobjectHandleInput;
}>;


export type SavedItemsReadInsightsQuery = { metaobjectByHandle?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )> };

export type SavedItemsWriteInsightsMutationVariables = AdminTypes.Exact<{
  handle: AdminTypes.MetaobjectHandleInput;
  metaobject: AdminTypes.MetaobjectUpsertInput;
}>;


export type SavedItemsWriteInsightsMutation = { metaobjectUpsert?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SaveItemNodeFragment = (
  Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
  & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
);

export type SavedItemsListIndexFragment = (
  Pick<AdminTypes.Metaobject, 'id'>
  & { index?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>>, removed?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> }
);

export type SavedItemsDirectoryListsFragment = { lists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> };

export type SavedItemsSearchPageFragment = { edges: Array<(
    Pick<AdminTypes.MetaobjectEdge, 'cursor'>
    & { node: (
      Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
      & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
    ) }
  )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> };

export type SavedItemsListWrittenFragment = { metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> };

export type SavedItemsItemUpsertedFragment = { metaobject?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> };

export type SavedItemsItemUpdatedFragment = { metaobject?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> };

export type SavedItemsListActiveQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
  query: AdminTypes.Scalars['String']['input'];
}>;


export type SavedItemsListActiveQuery = { metaobjects: { edges: Array<(
      Pick<AdminTypes.MetaobjectEdge, 'cursor'>
      & { node: (
        Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
        & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
      ) }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> } };

export type SavedItemsDeletedFragment = (
  Pick<AdminTypes.MetaobjectDeletePayload, 'deletedId'>
  & { userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }
);

export type SavedItemsRetainedListFragment = (
  Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
  & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
);

export type SavedItemsRetentionPageQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsRetentionPageQuery = { metaobjects: { edges: Array<(
      Pick<AdminTypes.MetaobjectEdge, 'cursor'>
      & { node: (
        Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
        & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
      ) }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> } };

export type SavedItemsRetentionListQueryVariables = AdminTypes.Exact<{
  list: AdminTypes.MetaobjectHandleInput;
  directory: AdminTypes.MetaobjectHandleInput;
}>;


export type SavedItemsRetentionListQuery = { list?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )>, directory?: AdminTypes.Maybe<{ lists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> }> };

export type SavedItemsRetentionWriteListMutationVariables = AdminTypes.Exact<{
  list: AdminTypes.MetaobjectHandleInput;
  fields: AdminTypes.MetaobjectUpsertInput;
}>;


export type SavedItemsRetentionWriteListMutation = { metaobjectUpsert?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsRetentionDropListMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  directory: AdminTypes.MetaobjectHandleInput;
  directoryFields: AdminTypes.MetaobjectUpsertInput;
}>;


export type SavedItemsRetentionDropListMutation = { metaobjectDelete?: AdminTypes.Maybe<(
    Pick<AdminTypes.MetaobjectDeletePayload, 'deletedId'>
    & { userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }
  )>, directory?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsShareReadListQueryVariables = AdminTypes.Exact<{
  handle: AdminTypes.MetaobjectHandleInput;
}>;


export type SavedItemsShareReadListQuery = { metaobjectByHandle?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id' | 'handle'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )> };

export type SavedItemsShareUpdateMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  metaobject: AdminTypes.MetaobjectUpdateInput;
}>;


export type SavedItemsShareUpdateMutation = { metaobjectUpdate?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsFindSharedQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
}>;


export type SavedItemsFindSharedQuery = { metaobjects: { nodes: Array<(
      Pick<AdminTypes.Metaobject, 'id' | 'handle'>
      & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
    )> } };

export type SavedItemsNamedListFragment = (
  Pick<AdminTypes.Metaobject, 'id' | 'createdAt' | 'updatedAt'>
  & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
);

export type SavedItemsReadNamedListQueryVariables = AdminTypes.Exact<{
  list: AdminTypes.MetaobjectHandleInput;
  directory: AdminTypes.MetaobjectHandleInput;
}>;


export type SavedItemsReadNamedListQuery = { list?: AdminTypes.Maybe<(
    Pick<AdminTypes.Metaobject, 'id' | 'createdAt' | 'updatedAt'>
    & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
  )>, directory?: AdminTypes.Maybe<{ namedLists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>>, lists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> }> };

export type SavedItemsWriteNamedListMutationVariables = AdminTypes.Exact<{
  list: AdminTypes.MetaobjectHandleInput;
  listFields: AdminTypes.MetaobjectUpsertInput;
  directory: AdminTypes.MetaobjectHandleInput;
  directoryFields: AdminTypes.MetaobjectUpsertInput;
  writeDirectory: AdminTypes.Scalars['Boolean']['input'];
}>;


export type SavedItemsWriteNamedListMutation = { list?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<(
      Pick<AdminTypes.Metaobject, 'id' | 'createdAt' | 'updatedAt'>
      & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
    )>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }>, directory?: AdminTypes.Maybe<{ metaobject?: AdminTypes.Maybe<Pick<AdminTypes.Metaobject, 'id'>>, userErrors: Array<Pick<AdminTypes.MetaobjectUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsReadListsQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
  directory: AdminTypes.MetaobjectHandleInput;
  withDirectory: AdminTypes.Scalars['Boolean']['input'];
}>;


export type SavedItemsReadListsQuery = { metaobjects: { edges: Array<(
      Pick<AdminTypes.MetaobjectEdge, 'cursor'>
      & { node: (
        Pick<AdminTypes.Metaobject, 'id' | 'createdAt' | 'updatedAt'>
        & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
      ) }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> }, directory?: AdminTypes.Maybe<{ lists?: AdminTypes.Maybe<Pick<AdminTypes.MetaobjectField, 'value'>> }> };

export type SavedItemsSetSavedByMutationVariables = AdminTypes.Exact<{
  metafields: Array<AdminTypes.MetafieldsSetInput> | AdminTypes.MetafieldsSetInput;
}>;


export type SavedItemsSetSavedByMutation = { metafieldsSet?: AdminTypes.Maybe<{ metafields?: AdminTypes.Maybe<Array<Pick<AdminTypes.Metafield, 'id'>>>, userErrors: Array<Pick<AdminTypes.MetafieldsSetUserError, 'field' | 'message' | 'code'>> }> };

export type SavedItemsExistingProductsQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsExistingProductsQuery = { nodes: Array<AdminTypes.Maybe<Pick<AdminTypes.AbandonedCheckout, 'id'> | Pick<AdminTypes.AbandonedCheckoutLineItem, 'id'> | Pick<AdminTypes.Abandonment, 'id'> | Pick<AdminTypes.AddAllProductsOperation, 'id'> | Pick<AdminTypes.AdditionalFee, 'id'> | Pick<AdminTypes.AnalyticsAnnotation, 'id'> | Pick<AdminTypes.AnalyticsTarget, 'id'> | Pick<AdminTypes.App, 'id'> | Pick<AdminTypes.AppCatalog, 'id'> | Pick<AdminTypes.AppCredit, 'id'> | Pick<AdminTypes.AppInstallation, 'id'> | Pick<AdminTypes.AppPurchaseOneTime, 'id'> | Pick<AdminTypes.AppRevenueAttributionRecord, 'id'> | Pick<AdminTypes.AppSubscription, 'id'> | Pick<AdminTypes.AppUsageRecord, 'id'> | Pick<AdminTypes.Article, 'id'> | Pick<AdminTypes.BasicEvent, 'id'> | Pick<AdminTypes.Blog, 'id'> | Pick<AdminTypes.BulkOperation, 'id'> | Pick<AdminTypes.BusinessEntity, 'id'> | Pick<AdminTypes.CalculatedOrder, 'id'> | Pick<AdminTypes.CartTransform, 'id'> | Pick<AdminTypes.CashDrawer, 'id'> | Pick<AdminTypes.CashManagementCustomReasonCode, 'id'> | Pick<AdminTypes.CashManagementDefaultReasonCode, 'id'> | Pick<AdminTypes.CashManagementSystemReasonCode, 'id'> | Pick<AdminTypes.CashTrackingAdjustment, 'id'> | Pick<AdminTypes.CashTrackingSession, 'id'> | Pick<AdminTypes.CatalogCsvOperation, 'id'> | Pick<AdminTypes.Channel, 'id'> | Pick<AdminTypes.ChannelDefinition, 'id'> | Pick<AdminTypes.ChannelInformation, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfiguration, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfigurationOverride, 'id'> | Pick<AdminTypes.CheckoutProfile, 'id'> | Pick<AdminTypes.Collection, 'id'> | Pick<AdminTypes.CollectionConditionsSource, 'id'> | Pick<AdminTypes.CollectionSubCollectionsSource, 'id'> | Pick<AdminTypes.Comment, 'id'> | Pick<AdminTypes.CommentEvent, 'id'> | Pick<AdminTypes.Company, 'id'> | Pick<AdminTypes.CompanyAddress, 'id'> | Pick<AdminTypes.CompanyContact, 'id'> | Pick<AdminTypes.CompanyContactRole, 'id'> | Pick<AdminTypes.CompanyContactRoleAssignment, 'id'> | Pick<AdminTypes.CompanyLocation, 'id'> | Pick<AdminTypes.CompanyLocationCatalog, 'id'> | Pick<AdminTypes.CompanyLocationStaffMemberAssignment, 'id'> | Pick<AdminTypes.ConsentPolicy, 'id'> | Pick<AdminTypes.CurrencyExchangeAdjustment, 'id'> | Pick<AdminTypes.Customer, 'id'> | Pick<AdminTypes.CustomerAccountAppExtensionPage, 'id'> | Pick<AdminTypes.CustomerAccountNativePage, 'id'> | Pick<AdminTypes.CustomerPaymentMethod, 'id'> | Pick<AdminTypes.CustomerSegmentMembersQuery, 'id'> | Pick<AdminTypes.CustomerVisit, 'id'> | Pick<AdminTypes.DeliveryCarrierService, 'id'> | Pick<AdminTypes.DeliveryCondition, 'id'> | Pick<AdminTypes.DeliveryCountry, 'id'> | Pick<AdminTypes.DeliveryCustomization, 'id'> | Pick<AdminTypes.DeliveryLocationGroup, 'id'> | Pick<AdminTypes.DeliveryMethod, 'id'> | Pick<AdminTypes.DeliveryMethodDefinition, 'id'> | Pick<AdminTypes.DeliveryParticipant, 'id'> | Pick<AdminTypes.DeliveryProfile, 'id'> | Pick<AdminTypes.DeliveryProfileItem, 'id'> | Pick<AdminTypes.DeliveryPromiseParticipant, 'id'> | Pick<AdminTypes.DeliveryPromiseProvider, 'id'> | Pick<AdminTypes.DeliveryProvince, 'id'> | Pick<AdminTypes.DeliveryRateDefinition, 'id'> | Pick<AdminTypes.DeliveryZone, 'id'> | Pick<AdminTypes.DiscountAutomaticBxgy, 'id'> | Pick<AdminTypes.DiscountAutomaticNode, 'id'> | Pick<AdminTypes.DiscountCodeNode, 'id'> | Pick<AdminTypes.DiscountNode, 'id'> | Pick<AdminTypes.DiscountRedeemCodeBulkCreation, 'id'> | Pick<AdminTypes.Domain, 'id'> | Pick<AdminTypes.DraftOrder, 'id'> | Pick<AdminTypes.DraftOrderLineItem, 'id'> | Pick<AdminTypes.DraftOrderTag, 'id'> | Pick<AdminTypes.Duty, 'id'> | Pick<AdminTypes.ExchangeLineItem, 'id'> | Pick<AdminTypes.ExternalVideo, 'id'> | Pick<AdminTypes.Fulfillment, 'id'> | Pick<AdminTypes.FulfillmentConstraintRule, 'id'> | Pick<AdminTypes.FulfillmentEvent, 'id'> | Pick<AdminTypes.FulfillmentHold, 'id'> | Pick<AdminTypes.FulfillmentLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrder, 'id'> | Pick<AdminTypes.FulfillmentOrderDestination, 'id'> | Pick<AdminTypes.FulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrderMerchantRequest, 'id'> | Pick<AdminTypes.GenericFile, 'id'> | Pick<AdminTypes.GiftCard, 'id'> | Pick<AdminTypes.GiftCardCashOutTransaction, 'id'> | Pick<AdminTypes.GiftCardCreditTransaction, 'id'> | Pick<AdminTypes.GiftCardDebitTransaction, 'id'> | Pick<AdminTypes.IdentityProviderSubject, 'id'> | Pick<AdminTypes.InventoryAdjustmentGroup, 'id'> | Pick<AdminTypes.InventoryItem, 'id'> | Pick<AdminTypes.InventoryItemMeasurement, 'id'> | Pick<AdminTypes.InventoryLevel, 'id'> | Pick<AdminTypes.InventoryQuantity, 'id'> | Pick<AdminTypes.InventoryShipment, 'id'> | Pick<AdminTypes.InventoryShipmentLineItem, 'id'> | Pick<AdminTypes.InventoryTransfer, 'id'> | Pick<AdminTypes.InventoryTransferLineItem, 'id'> | Pick<AdminTypes.LineItem, 'id'> | Pick<AdminTypes.LineItemGroup, 'id'> | Pick<AdminTypes.Location, 'id'> | Pick<AdminTypes.MailingAddress, 'id'> | Pick<AdminTypes.Market, 'id'> | Pick<AdminTypes.MarketCatalog, 'id'> | Pick<AdminTypes.MarketRegionCountry, 'id'> | Pick<AdminTypes.MarketRegionSubdivision, 'id'> | Pick<AdminTypes.MarketWebPresence, 'id'> | Pick<AdminTypes.MarketingActivity, 'id'> | Pick<AdminTypes.MarketingEvent, 'id'> | Pick<AdminTypes.MediaImage, 'id'> | Pick<AdminTypes.Menu, 'id'> | Pick<AdminTypes.Metafield, 'id'> | Pick<AdminTypes.MetafieldDefinition, 'id'> | Pick<AdminTypes.Metaobject, 'id'> | Pick<AdminTypes.MetaobjectDefinition, 'id'> | Pick<AdminTypes.Model3d, 'id'> | Pick<AdminTypes.OnlineStoreTheme, 'id'> | Pick<AdminTypes.Order, 'id'> | Pick<AdminTypes.OrderAdjustment, 'id'> | Pick<AdminTypes.OrderAttributionDefinition, 'id'> | Pick<AdminTypes.OrderCancelJobResult, 'id'> | Pick<AdminTypes.OrderCreateMandatePaymentJobResult, 'id'> | Pick<AdminTypes.OrderDisputeSummary, 'id'> | Pick<AdminTypes.OrderEditSession, 'id'> | Pick<AdminTypes.OrderTransaction, 'id'> | Pick<AdminTypes.Page, 'id'> | Pick<AdminTypes.PaymentCustomization, 'id'> | Pick<AdminTypes.PaymentMandate, 'id'> | Pick<AdminTypes.PaymentSchedule, 'id'> | Pick<AdminTypes.PaymentTerms, 'id'> | Pick<AdminTypes.PaymentTermsTemplate, 'id'> | Pick<AdminTypes.PointOfSaleDevice, 'id'> | Pick<AdminTypes.PointOfSaleDevicePaymentSession, 'id'> | Pick<AdminTypes.PriceList, 'id'> | Pick<AdminTypes.Product, 'id'> | Pick<AdminTypes.ProductBundleOperation, 'id'> | Pick<AdminTypes.ProductDeleteOperation, 'id'> | Pick<AdminTypes.ProductDuplicateOperation, 'id'> | Pick<AdminTypes.ProductFeed, 'id'> | Pick<AdminTypes.ProductOption, 'id'> | Pick<AdminTypes.ProductOptionValue, 'id'> | Pick<AdminTypes.ProductSetOperation, 'id'> | Pick<AdminTypes.ProductTaxonomyNode, 'id'> | Pick<AdminTypes.ProductVariant, 'id'> | Pick<AdminTypes.ProductVariantComponent, 'id'> | Pick<AdminTypes.Publication, 'id'> | Pick<AdminTypes.PublicationResourceOperation, 'id'> | Pick<AdminTypes.QuantityPriceBreak, 'id'> | Pick<AdminTypes.Refund, 'id'> | Pick<AdminTypes.RefundShippingLine, 'id'> | Pick<AdminTypes.Return, 'id'> | Pick<AdminTypes.ReturnLineItem, 'id'> | Pick<AdminTypes.ReturnReasonDefinition, 'id'> | Pick<AdminTypes.ReturnableFulfillment, 'id'> | Pick<AdminTypes.ReverseDelivery, 'id'> | Pick<AdminTypes.ReverseDeliveryLineItem, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrder, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderDisposition, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.SaleAdditionalFee, 'id'> | Pick<AdminTypes.SavedSearch, 'id'> | Pick<AdminTypes.ScriptTag, 'id'> | Pick<AdminTypes.Segment, 'id'> | Pick<AdminTypes.SellingPlan, 'id'> | Pick<AdminTypes.SellingPlanGroup, 'id'> | Pick<AdminTypes.ServerPixel, 'id'> | Pick<AdminTypes.ShippingLabel, 'id'> | Pick<AdminTypes.ShippingLabelPurchaseResult, 'id'> | Pick<AdminTypes.Shop, 'id'> | Pick<AdminTypes.ShopAddress, 'id'> | Pick<AdminTypes.ShopPolicy, 'id'> | Pick<AdminTypes.ShopifyPaymentsAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id'> | Pick<AdminTypes.ShopifyPaymentsBankAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsDispute, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFileUpload, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFulfillment, 'id'> | Pick<AdminTypes.ShopifyPaymentsPayout, 'id'> | Pick<AdminTypes.StaffMember, 'id'> | Pick<AdminTypes.StandardMetafieldDefinitionTemplate, 'id'> | Pick<AdminTypes.StoreCreditAccount, 'id'> | Pick<AdminTypes.StoreCreditAccountCreditTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitRevertTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitTransaction, 'id'> | Pick<AdminTypes.StorefrontAccessToken, 'id'> | Pick<AdminTypes.SubscriptionBillingAttempt, 'id'> | Pick<AdminTypes.SubscriptionContract, 'id'> | Pick<AdminTypes.SubscriptionDraft, 'id'> | Pick<AdminTypes.TaxonomyAttribute, 'id'> | Pick<AdminTypes.TaxonomyCategory, 'id'> | Pick<AdminTypes.TaxonomyChoiceListAttribute, 'id'> | Pick<AdminTypes.TaxonomyMeasurementAttribute, 'id'> | Pick<AdminTypes.TaxonomyValue, 'id'> | Pick<AdminTypes.TenderTransaction, 'id'> | Pick<AdminTypes.TransactionFee, 'id'> | Pick<AdminTypes.UnverifiedReturnLineItem, 'id'> | Pick<AdminTypes.UrlRedirect, 'id'> | Pick<AdminTypes.UrlRedirectImport, 'id'> | Pick<AdminTypes.Validation, 'id'> | Pick<AdminTypes.Video, 'id'> | Pick<AdminTypes.WebPixel, 'id'> | Pick<AdminTypes.WebhookSubscription, 'id'>>> };

export type SavedItemsDeleteSavedByMutationVariables = AdminTypes.Exact<{
  metafields: Array<AdminTypes.MetafieldIdentifierInput> | AdminTypes.MetafieldIdentifierInput;
}>;


export type SavedItemsDeleteSavedByMutation = { metafieldsDelete?: AdminTypes.Maybe<{ deletedMetafields?: AdminTypes.Maybe<Array<AdminTypes.Maybe<Pick<AdminTypes.MetafieldIdentifier, 'ownerId'>>>>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type SavedItemsFindSaversQueryVariables = AdminTypes.Exact<{
  type: AdminTypes.Scalars['String']['input'];
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type SavedItemsFindSaversQuery = { metaobjects: { edges: Array<(
      Pick<AdminTypes.MetaobjectEdge, 'cursor'>
      & { node: (
        Pick<AdminTypes.Metaobject, 'id' | 'updatedAt'>
        & { fields: Array<Pick<AdminTypes.MetaobjectField, 'key' | 'value'>> }
      ) }
    )>, pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'> } };

export type SavedItemsAccessScopesQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type SavedItemsAccessScopesQuery = { currentAppInstallation: { accessScopes: Array<Pick<AdminTypes.AccessScope, 'handle'>> } };

export type SavedItemsProductCardsQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type SavedItemsProductCardsQuery = { nodes: Array<AdminTypes.Maybe<Pick<AdminTypes.AbandonedCheckout, 'id'> | Pick<AdminTypes.AbandonedCheckoutLineItem, 'id'> | Pick<AdminTypes.Abandonment, 'id'> | Pick<AdminTypes.AddAllProductsOperation, 'id'> | Pick<AdminTypes.AdditionalFee, 'id'> | Pick<AdminTypes.AnalyticsAnnotation, 'id'> | Pick<AdminTypes.AnalyticsTarget, 'id'> | Pick<AdminTypes.App, 'id'> | Pick<AdminTypes.AppCatalog, 'id'> | Pick<AdminTypes.AppCredit, 'id'> | Pick<AdminTypes.AppInstallation, 'id'> | Pick<AdminTypes.AppPurchaseOneTime, 'id'> | Pick<AdminTypes.AppRevenueAttributionRecord, 'id'> | Pick<AdminTypes.AppSubscription, 'id'> | Pick<AdminTypes.AppUsageRecord, 'id'> | Pick<AdminTypes.Article, 'id'> | Pick<AdminTypes.BasicEvent, 'id'> | Pick<AdminTypes.Blog, 'id'> | Pick<AdminTypes.BulkOperation, 'id'> | Pick<AdminTypes.BusinessEntity, 'id'> | Pick<AdminTypes.CalculatedOrder, 'id'> | Pick<AdminTypes.CartTransform, 'id'> | Pick<AdminTypes.CashDrawer, 'id'> | Pick<AdminTypes.CashManagementCustomReasonCode, 'id'> | Pick<AdminTypes.CashManagementDefaultReasonCode, 'id'> | Pick<AdminTypes.CashManagementSystemReasonCode, 'id'> | Pick<AdminTypes.CashTrackingAdjustment, 'id'> | Pick<AdminTypes.CashTrackingSession, 'id'> | Pick<AdminTypes.CatalogCsvOperation, 'id'> | Pick<AdminTypes.Channel, 'id'> | Pick<AdminTypes.ChannelDefinition, 'id'> | Pick<AdminTypes.ChannelInformation, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfiguration, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfigurationOverride, 'id'> | Pick<AdminTypes.CheckoutProfile, 'id'> | Pick<AdminTypes.Collection, 'id'> | Pick<AdminTypes.CollectionConditionsSource, 'id'> | Pick<AdminTypes.CollectionSubCollectionsSource, 'id'> | Pick<AdminTypes.Comment, 'id'> | Pick<AdminTypes.CommentEvent, 'id'> | Pick<AdminTypes.Company, 'id'> | Pick<AdminTypes.CompanyAddress, 'id'> | Pick<AdminTypes.CompanyContact, 'id'> | Pick<AdminTypes.CompanyContactRole, 'id'> | Pick<AdminTypes.CompanyContactRoleAssignment, 'id'> | Pick<AdminTypes.CompanyLocation, 'id'> | Pick<AdminTypes.CompanyLocationCatalog, 'id'> | Pick<AdminTypes.CompanyLocationStaffMemberAssignment, 'id'> | Pick<AdminTypes.ConsentPolicy, 'id'> | Pick<AdminTypes.CurrencyExchangeAdjustment, 'id'> | Pick<AdminTypes.Customer, 'id'> | Pick<AdminTypes.CustomerAccountAppExtensionPage, 'id'> | Pick<AdminTypes.CustomerAccountNativePage, 'id'> | Pick<AdminTypes.CustomerPaymentMethod, 'id'> | Pick<AdminTypes.CustomerSegmentMembersQuery, 'id'> | Pick<AdminTypes.CustomerVisit, 'id'> | Pick<AdminTypes.DeliveryCarrierService, 'id'> | Pick<AdminTypes.DeliveryCondition, 'id'> | Pick<AdminTypes.DeliveryCountry, 'id'> | Pick<AdminTypes.DeliveryCustomization, 'id'> | Pick<AdminTypes.DeliveryLocationGroup, 'id'> | Pick<AdminTypes.DeliveryMethod, 'id'> | Pick<AdminTypes.DeliveryMethodDefinition, 'id'> | Pick<AdminTypes.DeliveryParticipant, 'id'> | Pick<AdminTypes.DeliveryProfile, 'id'> | Pick<AdminTypes.DeliveryProfileItem, 'id'> | Pick<AdminTypes.DeliveryPromiseParticipant, 'id'> | Pick<AdminTypes.DeliveryPromiseProvider, 'id'> | Pick<AdminTypes.DeliveryProvince, 'id'> | Pick<AdminTypes.DeliveryRateDefinition, 'id'> | Pick<AdminTypes.DeliveryZone, 'id'> | Pick<AdminTypes.DiscountAutomaticBxgy, 'id'> | Pick<AdminTypes.DiscountAutomaticNode, 'id'> | Pick<AdminTypes.DiscountCodeNode, 'id'> | Pick<AdminTypes.DiscountNode, 'id'> | Pick<AdminTypes.DiscountRedeemCodeBulkCreation, 'id'> | Pick<AdminTypes.Domain, 'id'> | Pick<AdminTypes.DraftOrder, 'id'> | Pick<AdminTypes.DraftOrderLineItem, 'id'> | Pick<AdminTypes.DraftOrderTag, 'id'> | Pick<AdminTypes.Duty, 'id'> | Pick<AdminTypes.ExchangeLineItem, 'id'> | Pick<AdminTypes.ExternalVideo, 'id'> | Pick<AdminTypes.Fulfillment, 'id'> | Pick<AdminTypes.FulfillmentConstraintRule, 'id'> | Pick<AdminTypes.FulfillmentEvent, 'id'> | Pick<AdminTypes.FulfillmentHold, 'id'> | Pick<AdminTypes.FulfillmentLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrder, 'id'> | Pick<AdminTypes.FulfillmentOrderDestination, 'id'> | Pick<AdminTypes.FulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrderMerchantRequest, 'id'> | Pick<AdminTypes.GenericFile, 'id'> | Pick<AdminTypes.GiftCard, 'id'> | Pick<AdminTypes.GiftCardCashOutTransaction, 'id'> | Pick<AdminTypes.GiftCardCreditTransaction, 'id'> | Pick<AdminTypes.GiftCardDebitTransaction, 'id'> | Pick<AdminTypes.IdentityProviderSubject, 'id'> | Pick<AdminTypes.InventoryAdjustmentGroup, 'id'> | Pick<AdminTypes.InventoryItem, 'id'> | Pick<AdminTypes.InventoryItemMeasurement, 'id'> | Pick<AdminTypes.InventoryLevel, 'id'> | Pick<AdminTypes.InventoryQuantity, 'id'> | Pick<AdminTypes.InventoryShipment, 'id'> | Pick<AdminTypes.InventoryShipmentLineItem, 'id'> | Pick<AdminTypes.InventoryTransfer, 'id'> | Pick<AdminTypes.InventoryTransferLineItem, 'id'> | Pick<AdminTypes.LineItem, 'id'> | Pick<AdminTypes.LineItemGroup, 'id'> | Pick<AdminTypes.Location, 'id'> | Pick<AdminTypes.MailingAddress, 'id'> | Pick<AdminTypes.Market, 'id'> | Pick<AdminTypes.MarketCatalog, 'id'> | Pick<AdminTypes.MarketRegionCountry, 'id'> | Pick<AdminTypes.MarketRegionSubdivision, 'id'> | Pick<AdminTypes.MarketWebPresence, 'id'> | Pick<AdminTypes.MarketingActivity, 'id'> | Pick<AdminTypes.MarketingEvent, 'id'> | Pick<AdminTypes.MediaImage, 'id'> | Pick<AdminTypes.Menu, 'id'> | Pick<AdminTypes.Metafield, 'id'> | Pick<AdminTypes.MetafieldDefinition, 'id'> | Pick<AdminTypes.Metaobject, 'id'> | Pick<AdminTypes.MetaobjectDefinition, 'id'> | Pick<AdminTypes.Model3d, 'id'> | Pick<AdminTypes.OnlineStoreTheme, 'id'> | Pick<AdminTypes.Order, 'id'> | Pick<AdminTypes.OrderAdjustment, 'id'> | Pick<AdminTypes.OrderAttributionDefinition, 'id'> | Pick<AdminTypes.OrderCancelJobResult, 'id'> | Pick<AdminTypes.OrderCreateMandatePaymentJobResult, 'id'> | Pick<AdminTypes.OrderDisputeSummary, 'id'> | Pick<AdminTypes.OrderEditSession, 'id'> | Pick<AdminTypes.OrderTransaction, 'id'> | Pick<AdminTypes.Page, 'id'> | Pick<AdminTypes.PaymentCustomization, 'id'> | Pick<AdminTypes.PaymentMandate, 'id'> | Pick<AdminTypes.PaymentSchedule, 'id'> | Pick<AdminTypes.PaymentTerms, 'id'> | Pick<AdminTypes.PaymentTermsTemplate, 'id'> | Pick<AdminTypes.PointOfSaleDevice, 'id'> | Pick<AdminTypes.PointOfSaleDevicePaymentSession, 'id'> | Pick<AdminTypes.PriceList, 'id'> | (
    Pick<AdminTypes.Product, 'id' | 'title' | 'handle' | 'status' | 'onlineStoreUrl'>
    & { featuredMedia?: AdminTypes.Maybe<{ preview?: AdminTypes.Maybe<{ image?: AdminTypes.Maybe<Pick<AdminTypes.Image, 'url'>> }> }>, priceRangeV2: { minVariantPrice: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, variants: { nodes: Array<(
        Pick<AdminTypes.ProductVariant, 'id' | 'availableForSale'>
        & { inventoryItem: Pick<AdminTypes.InventoryItem, 'id'> }
      )> } }
  ) | Pick<AdminTypes.ProductBundleOperation, 'id'> | Pick<AdminTypes.ProductDeleteOperation, 'id'> | Pick<AdminTypes.ProductDuplicateOperation, 'id'> | Pick<AdminTypes.ProductFeed, 'id'> | Pick<AdminTypes.ProductOption, 'id'> | Pick<AdminTypes.ProductOptionValue, 'id'> | Pick<AdminTypes.ProductSetOperation, 'id'> | Pick<AdminTypes.ProductTaxonomyNode, 'id'> | (
    Pick<AdminTypes.ProductVariant, 'title' | 'price' | 'availableForSale' | 'id'>
    & { inventoryItem: Pick<AdminTypes.InventoryItem, 'id'>, product: (
      Pick<AdminTypes.Product, 'id' | 'title' | 'handle' | 'status' | 'onlineStoreUrl'>
      & { featuredMedia?: AdminTypes.Maybe<{ preview?: AdminTypes.Maybe<{ image?: AdminTypes.Maybe<Pick<AdminTypes.Image, 'url'>> }> }>, priceRangeV2: { minVariantPrice: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, variants: { nodes: Array<(
          Pick<AdminTypes.ProductVariant, 'id' | 'availableForSale'>
          & { inventoryItem: Pick<AdminTypes.InventoryItem, 'id'> }
        )> } }
    ) }
  ) | Pick<AdminTypes.ProductVariantComponent, 'id'> | Pick<AdminTypes.Publication, 'id'> | Pick<AdminTypes.PublicationResourceOperation, 'id'> | Pick<AdminTypes.QuantityPriceBreak, 'id'> | Pick<AdminTypes.Refund, 'id'> | Pick<AdminTypes.RefundShippingLine, 'id'> | Pick<AdminTypes.Return, 'id'> | Pick<AdminTypes.ReturnLineItem, 'id'> | Pick<AdminTypes.ReturnReasonDefinition, 'id'> | Pick<AdminTypes.ReturnableFulfillment, 'id'> | Pick<AdminTypes.ReverseDelivery, 'id'> | Pick<AdminTypes.ReverseDeliveryLineItem, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrder, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderDisposition, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.SaleAdditionalFee, 'id'> | Pick<AdminTypes.SavedSearch, 'id'> | Pick<AdminTypes.ScriptTag, 'id'> | Pick<AdminTypes.Segment, 'id'> | Pick<AdminTypes.SellingPlan, 'id'> | Pick<AdminTypes.SellingPlanGroup, 'id'> | Pick<AdminTypes.ServerPixel, 'id'> | Pick<AdminTypes.ShippingLabel, 'id'> | Pick<AdminTypes.ShippingLabelPurchaseResult, 'id'> | Pick<AdminTypes.Shop, 'id'> | Pick<AdminTypes.ShopAddress, 'id'> | Pick<AdminTypes.ShopPolicy, 'id'> | Pick<AdminTypes.ShopifyPaymentsAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id'> | Pick<AdminTypes.ShopifyPaymentsBankAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsDispute, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFileUpload, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFulfillment, 'id'> | Pick<AdminTypes.ShopifyPaymentsPayout, 'id'> | Pick<AdminTypes.StaffMember, 'id'> | Pick<AdminTypes.StandardMetafieldDefinitionTemplate, 'id'> | Pick<AdminTypes.StoreCreditAccount, 'id'> | Pick<AdminTypes.StoreCreditAccountCreditTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitRevertTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitTransaction, 'id'> | Pick<AdminTypes.StorefrontAccessToken, 'id'> | Pick<AdminTypes.SubscriptionBillingAttempt, 'id'> | Pick<AdminTypes.SubscriptionContract, 'id'> | Pick<AdminTypes.SubscriptionDraft, 'id'> | Pick<AdminTypes.TaxonomyAttribute, 'id'> | Pick<AdminTypes.TaxonomyCategory, 'id'> | Pick<AdminTypes.TaxonomyChoiceListAttribute, 'id'> | Pick<AdminTypes.TaxonomyMeasurementAttribute, 'id'> | Pick<AdminTypes.TaxonomyValue, 'id'> | Pick<AdminTypes.TenderTransaction, 'id'> | Pick<AdminTypes.TransactionFee, 'id'> | Pick<AdminTypes.UnverifiedReturnLineItem, 'id'> | Pick<AdminTypes.UrlRedirect, 'id'> | Pick<AdminTypes.UrlRedirectImport, 'id'> | Pick<AdminTypes.Validation, 'id'> | Pick<AdminTypes.Video, 'id'> | Pick<AdminTypes.WebPixel, 'id'> | Pick<AdminTypes.WebhookSubscription, 'id'>>> };

export type SavedItemsCardProductFragment = (
  Pick<AdminTypes.Product, 'id' | 'title' | 'handle' | 'status' | 'onlineStoreUrl'>
  & { featuredMedia?: AdminTypes.Maybe<{ preview?: AdminTypes.Maybe<{ image?: AdminTypes.Maybe<Pick<AdminTypes.Image, 'url'>> }> }>, priceRangeV2: { minVariantPrice: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, variants: { nodes: Array<(
      Pick<AdminTypes.ProductVariant, 'id' | 'availableForSale'>
      & { inventoryItem: Pick<AdminTypes.InventoryItem, 'id'> }
    )> } }
);

export type SavedItemsOverageShopQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type SavedItemsOverageShopQuery = { shop: Pick<AdminTypes.Shop, 'id'> };

interface GeneratedQueryTypes {
  "#graphql\n  query SavedItemsBulkOperationStatus($id: ID!) {\n    bulkOperation(id: $id) { id status objectCount errorCode url }\n  }": {return: SavedItemsBulkOperationStatusQuery, variables: SavedItemsBulkOperationStatusQueryVariables},
  "#graphql\n  query SavedItemsBillingCurrentSubscriptions {\n    currentAppInstallation {\n      activeSubscriptions {\n        name\n        status\n        lineItems {\n          plan {\n            pricingDetails {\n              __typename\n              ... on AppRecurringPricing {\n                planHandle\n              }\n            }\n          }\n        }\n      }\n    }\n  }": {return: SavedItemsBillingCurrentSubscriptionsQuery, variables: SavedItemsBillingCurrentSubscriptionsQueryVariables},
  "#graphql\n  query SavedItemsVariantProducts($ids: [ID!]!) {\n    nodes(ids: $ids) { id ... on ProductVariant { product { id } } }\n  }": {return: SavedItemsVariantProductsQuery, variables: SavedItemsVariantProductsQueryVariables},
  "#graphql\n  query SavedItemsInventoryItemVariant($id: ID!) {\n    inventoryItem(id: $id) { variants(first: 1) { nodes { id inventoryQuantity product { id } } } }\n  }": {return: SavedItemsInventoryItemVariantQuery, variables: SavedItemsInventoryItemVariantQueryVariables},
  "#graphql\n  query SavedItemsInsightsCatalogue($ids: [ID!]!) {\n    shop { currencyCode }\n    nodes(ids: $ids) {\n      id\n      ... on Product {\n        title\n        status\n        tracksInventory\n        totalInventory\n        priceRangeV2 { minVariantPrice { amount currencyCode } }\n      }\n      ... on ProductVariant { displayName price availableForSale }\n    }\n  }": {return: SavedItemsInsightsCatalogueQuery, variables: SavedItemsInsightsCatalogueQueryVariables},
  "#graphql\n  query SavedItemsComplianceCustomerItems($type: String!, $query: String!, $first: Int!, $after: String) {\n    metaobjects(type: $type, query: $query, first: $first, after: $after) {\n      nodes { ...SaveItemNode }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n  #graphql\n  fragment SaveItemNode on Metaobject {\n    id\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsComplianceCustomerItemsQuery, variables: SavedItemsComplianceCustomerItemsQueryVariables},
  "#graphql\n  query SavedItemsComplianceCustomerLists($type: String!, $query: String!, $first: Int!, $after: String) {\n    metaobjects(type: $type, query: $query, first: $first, after: $after) {\n      nodes {\n        id\n        updatedAt\n        context: field(key: \"context\") { value }\n      }\n      pageInfo { hasNextPage endCursor }\n    }\n  }": {return: SavedItemsComplianceCustomerListsQuery, variables: SavedItemsComplianceCustomerListsQueryVariables},
  "#graphql\n  query SavedItemsComplianceCustomerItemIds($type: String!, $query: String!, $first: Int!, $after: String) {\n    metaobjects(type: $type, query: $query, first: $first, after: $after) { ...SavedItemsRecordIds }\n  }\n  #graphql\n  fragment SavedItemsRecordIds on MetaobjectConnection {\n    nodes { id }\n    pageInfo { hasNextPage endCursor }\n  }": {return: SavedItemsComplianceCustomerItemIdsQuery, variables: SavedItemsComplianceCustomerItemIdsQueryVariables},
  "#graphql\n  query SavedItemsComplianceCustomerListIds($type: String!, $query: String!, $first: Int!, $after: String) {\n    metaobjects(type: $type, query: $query, first: $first, after: $after) { ...SavedItemsRecordIds }\n  }\n  #graphql\n  fragment SavedItemsRecordIds on MetaobjectConnection {\n    nodes { id }\n    pageInfo { hasNextPage endCursor }\n  }": {return: SavedItemsComplianceCustomerListIdsQuery, variables: SavedItemsComplianceCustomerListIdsQueryVariables},
  "#graphql\n  query SavedItemsStorageUsage($items: String!, $lists: String!, $directories: String!, $insights: String!) {\n    items: metaobjectDefinitionByType(type: $items) { metaobjectsCount }\n    lists: metaobjectDefinitionByType(type: $lists) { metaobjectsCount }\n    directories: metaobjectDefinitionByType(type: $directories) { metaobjectsCount }\n    insights: metaobjectDefinitionByType(type: $insights) { metaobjectsCount }\n  }": {return: SavedItemsStorageUsageQuery, variables: SavedItemsStorageUsageQueryVariables},
  "#graphql\n  query SavedItemsReadInsights($handle: MetaobjectHandleInput!) {\n    metaobjectByHandle(handle: $handle) { id fields { key value } }\n  }": {return: SavedItemsReadInsightsQuery, variables: SavedItemsReadInsightsQueryVariables},
  "#graphql\n  query SavedItemsListActive($type: String!, $first: Int!, $after: String, $query: String!) {\n    metaobjects(type: $type, first: $first, after: $after, query: $query, sortKey: \"updated_at\", reverse: true) {\n      ...SavedItemsSearchPage\n    }\n  }\n  #graphql\n  fragment SavedItemsSearchPage on MetaobjectConnection {\n    edges { cursor node { ...SaveItemNode } }\n    pageInfo { hasNextPage }\n  }\n  #graphql\n  fragment SaveItemNode on Metaobject {\n    id\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsListActiveQuery, variables: SavedItemsListActiveQueryVariables},
  "#graphql\n  query SavedItemsRetentionPage($type: String!, $first: Int!, $after: String) {\n    metaobjects(type: $type, first: $first, after: $after, sortKey: \"id\") {\n      edges { cursor node { ...SavedItemsRetainedList } }\n      pageInfo { hasNextPage }\n    }\n  }\n  #graphql\n  fragment SavedItemsRetainedList on Metaobject {\n    id\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsRetentionPageQuery, variables: SavedItemsRetentionPageQueryVariables},
  "#graphql\n  query SavedItemsRetentionList($list: MetaobjectHandleInput!, $directory: MetaobjectHandleInput!) {\n    list: metaobjectByHandle(handle: $list) { ...SavedItemsRetainedList }\n    directory: metaobjectByHandle(handle: $directory) { lists: field(key: \"lists\") { value } }\n  }\n  #graphql\n  fragment SavedItemsRetainedList on Metaobject {\n    id\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsRetentionListQuery, variables: SavedItemsRetentionListQueryVariables},
  "#graphql\n  query SavedItemsShareReadList($handle: MetaobjectHandleInput!) {\n    metaobjectByHandle(handle: $handle) { id handle fields { key value } }\n  }": {return: SavedItemsShareReadListQuery, variables: SavedItemsShareReadListQueryVariables},
  "#graphql\n  query SavedItemsFindShared($type: String!, $query: String!) {\n    metaobjects(type: $type, first: 1, query: $query) { nodes { id handle fields { key value } } }\n  }": {return: SavedItemsFindSharedQuery, variables: SavedItemsFindSharedQueryVariables},
  "#graphql\n  query SavedItemsReadNamedList($list: MetaobjectHandleInput!, $directory: MetaobjectHandleInput!) {\n    list: metaobjectByHandle(handle: $list) { ...SavedItemsNamedList }\n    directory: metaobjectByHandle(handle: $directory) {\n      namedLists: field(key: \"named_lists\") { value }\n      lists: field(key: \"lists\") { value }\n    }\n  }\n  #graphql\n  fragment SavedItemsNamedList on Metaobject {\n    id\n    createdAt\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsReadNamedListQuery, variables: SavedItemsReadNamedListQueryVariables},
  "#graphql\n  query SavedItemsReadLists(\n    $type: String!\n    $query: String!\n    $first: Int!\n    $after: String\n    $directory: MetaobjectHandleInput!\n    $withDirectory: Boolean!\n  ) {\n    metaobjects(type: $type, query: $query, first: $first, after: $after, sortKey: \"id\", reverse: true) {\n      edges { cursor node { ...SavedItemsNamedList } }\n      pageInfo { hasNextPage }\n    }\n    directory: metaobjectByHandle(handle: $directory) @include(if: $withDirectory) {\n      lists: field(key: \"lists\") { value }\n    }\n  }\n  #graphql\n  fragment SavedItemsNamedList on Metaobject {\n    id\n    createdAt\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsReadListsQuery, variables: SavedItemsReadListsQueryVariables},
  "#graphql\n  query SavedItemsExistingProducts($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n    }\n  }": {return: SavedItemsExistingProductsQuery, variables: SavedItemsExistingProductsQueryVariables},
  "#graphql\n  query SavedItemsFindSavers($type: String!, $query: String!, $after: String) {\n    metaobjects(type: $type, first: 100, after: $after, query: $query) {\n      edges { cursor node { ...SaveItemNode } }\n      pageInfo { hasNextPage }\n    }\n  }\n  #graphql\n  fragment SaveItemNode on Metaobject {\n    id\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsFindSaversQuery, variables: SavedItemsFindSaversQueryVariables},
  "#graphql\n  query SavedItemsAccessScopes {\n    currentAppInstallation {\n      accessScopes {\n        handle\n      }\n    }\n  }": {return: SavedItemsAccessScopesQuery, variables: SavedItemsAccessScopesQueryVariables},
  "#graphql\n  query SavedItemsProductCards($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      id\n      ... on Product {\n        ...SavedItemsCardProduct\n      }\n      ... on ProductVariant {\n        title\n        price\n        availableForSale\n        inventoryItem { id }\n        product { ...SavedItemsCardProduct }\n      }\n    }\n  }\n  fragment SavedItemsCardProduct on Product {\n    id\n    title\n    handle\n    status\n    onlineStoreUrl\n    featuredMedia { preview { image { url } } }\n    priceRangeV2 { minVariantPrice { amount currencyCode } }\n    # A product card's \"available\" and its Add to cart variant look at its first 10 variants.\n    variants(first: 10) { nodes { id availableForSale inventoryItem { id } } }\n  }": {return: SavedItemsProductCardsQuery, variables: SavedItemsProductCardsQueryVariables},
  "#graphql\n  query SavedItemsOverageShop {\n    shop {\n      id\n    }\n  }": {return: SavedItemsOverageShopQuery, variables: SavedItemsOverageShopQueryVariables},
}

interface GeneratedMutationTypes {
  "#graphql\n  mutation SavedItemsRunBulkQuery($query: String!) {\n    bulkOperationRunQuery(query: $query) {\n      bulkOperation { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsRunBulkQueryMutation, variables: SavedItemsRunBulkQueryMutationVariables},
  "#graphql\n  mutation SavedItemsFlowTrigger($handle: String, $payload: JSON) {\n    flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }\n  }": {return: SavedItemsFlowTriggerMutation, variables: SavedItemsFlowTriggerMutationVariables},
  "#graphql\n  mutation SavedItemsComplianceDeleteRecords($ids: [ID!]!) {\n    metaobjectBulkDelete(where: { ids: $ids }) {\n      job { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsComplianceDeleteRecordsMutation, variables: SavedItemsComplianceDeleteRecordsMutationVariables},
  "#graphql\n  mutation SavedItemsWriteInsights($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {\n    metaobjectUpsert(handle: $handle, metaobject: $metaobject) {\n      metaobject { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsWriteInsightsMutation, variables: SavedItemsWriteInsightsMutationVariables},
  "#graphql\n  mutation SavedItemsRetentionWriteList($list: MetaobjectHandleInput!, $fields: MetaobjectUpsertInput!) {\n    metaobjectUpsert(handle: $list, metaobject: $fields) {\n      metaobject { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsRetentionWriteListMutation, variables: SavedItemsRetentionWriteListMutationVariables},
  "#graphql\n  mutation SavedItemsRetentionDropList(\n    $id: ID!\n    $directory: MetaobjectHandleInput!\n    $directoryFields: MetaobjectUpsertInput!\n  ) {\n    metaobjectDelete(id: $id) {\n      deletedId\n      userErrors { field message code }\n    }\n    directory: metaobjectUpsert(handle: $directory, metaobject: $directoryFields) {\n      metaobject { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsRetentionDropListMutation, variables: SavedItemsRetentionDropListMutationVariables},
  "#graphql\n  mutation SavedItemsShareUpdate($id: ID!, $metaobject: MetaobjectUpdateInput!) {\n    metaobjectUpdate(id: $id, metaobject: $metaobject) { metaobject { id } userErrors { field message code } }\n  }": {return: SavedItemsShareUpdateMutation, variables: SavedItemsShareUpdateMutationVariables},
  "#graphql\n  mutation SavedItemsWriteNamedList(\n    $list: MetaobjectHandleInput!\n    $listFields: MetaobjectUpsertInput!\n    $directory: MetaobjectHandleInput!\n    $directoryFields: MetaobjectUpsertInput!\n    $writeDirectory: Boolean!\n  ) {\n    list: metaobjectUpsert(handle: $list, metaobject: $listFields) {\n      metaobject { ...SavedItemsNamedList }\n      userErrors { field message code }\n    }\n    directory: metaobjectUpsert(handle: $directory, metaobject: $directoryFields) @include(if: $writeDirectory) {\n      metaobject { id }\n      userErrors { field message code }\n    }\n  }\n  #graphql\n  fragment SavedItemsNamedList on Metaobject {\n    id\n    createdAt\n    updatedAt\n    fields { key value }\n  }": {return: SavedItemsWriteNamedListMutation, variables: SavedItemsWriteNamedListMutationVariables},
  "#graphql\n  mutation SavedItemsSetSavedBy($metafields: [MetafieldsSetInput!]!) {\n    metafieldsSet(metafields: $metafields) {\n      metafields { id }\n      userErrors { field message code }\n    }\n  }": {return: SavedItemsSetSavedByMutation, variables: SavedItemsSetSavedByMutationVariables},
  "#graphql\n  mutation SavedItemsDeleteSavedBy($metafields: [MetafieldIdentifierInput!]!) {\n    metafieldsDelete(metafields: $metafields) {\n      deletedMetafields { ownerId }\n      userErrors { field message }\n    }\n  }": {return: SavedItemsDeleteSavedByMutation, variables: SavedItemsDeleteSavedByMutationVariables},
}
declare module '~/platform/admin-graphql.server' {
  type InputMaybe<T> = AdminTypes.InputMaybe<T>;
  interface AdminQueries extends GeneratedQueryTypes {}
  interface AdminMutations extends GeneratedMutationTypes {}
}
