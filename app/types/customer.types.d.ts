export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  DateTime: { input: string; output: string; }
  Decimal: { input: string; output: string; }
  HTML: { input: string; output: string; }
  JSON: { input: unknown; output: unknown; }
  URL: { input: string; output: string; }
  UnsignedInt64: { input: string; output: string; }
};

export type AdditionalFeeSale = Node & Sale & {
  __typename?: 'AdditionalFeeSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type AdjustmentSale = Node & Sale & {
  __typename?: 'AdjustmentSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type Attribute = {
  __typename?: 'Attribute';
  key: Scalars['String']['output'];
  value?: Maybe<Scalars['String']['output']>;
};

export type AutomaticDiscountApplication = DiscountApplication & {
  __typename?: 'AutomaticDiscountApplication';
  allocationMethod: DiscountApplicationAllocationMethod;
  targetSelection: DiscountApplicationTargetSelection;
  targetType: DiscountApplicationTargetType;
  title: Scalars['String']['output'];
  value: PricingValue;
};

export type BusinessCustomerErrorCode =
  | 'BLANK'
  | 'BUSINESS_LOCATION_NOT_FOUND'
  | 'FAILED_TO_DELETE'
  | 'INTERNAL_ERROR'
  | 'INVALID'
  | 'INVALID_INPUT'
  | 'LIMIT_REACHED'
  | 'NO_INPUT'
  | 'PERMISSION_DENIED'
  | 'REQUIRED'
  | 'RESOURCE_NOT_FOUND'
  | 'TAKEN'
  | 'TOO_LONG'
  | 'UNEXPECTED_TYPE';

export type BusinessCustomerUserError = DisplayableError & {
  __typename?: 'BusinessCustomerUserError';
  code?: Maybe<BusinessCustomerErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type BuyerExperienceConfiguration = {
  __typename?: 'BuyerExperienceConfiguration';
  deposit?: Maybe<DepositConfiguration>;
  payNowOnly: Scalars['Boolean']['output'];
};

export type CalculateReturnInput = {
  orderId: Scalars['ID']['input'];
  returnLineItems: Array<CalculateReturnLineItemInput>;
};

export type CalculateReturnLineItemInput = {
  lineItemId: Scalars['ID']['input'];
  quantity: Scalars['Int']['input'];
};

export type CalculatedReturn = {
  __typename?: 'CalculatedReturn';
  financialSummary: ReturnFinancialSummary;
  returnLineItems: CalculatedReturnLineItemConnection;
};


export type CalculatedReturnReturnLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type CalculatedReturnLineItem = {
  __typename?: 'CalculatedReturnLineItem';
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
  subtotalSet: MoneyBag;
  totalTaxSet: MoneyBag;
};

export type CalculatedReturnLineItemConnection = {
  __typename?: 'CalculatedReturnLineItemConnection';
  edges: Array<CalculatedReturnLineItemEdge>;
  nodes: Array<CalculatedReturnLineItem>;
  pageInfo: PageInfo;
};

export type CalculatedReturnLineItemEdge = {
  __typename?: 'CalculatedReturnLineItemEdge';
  cursor: Scalars['String']['output'];
  node: CalculatedReturnLineItem;
};

export type CardPaymentDetails = {
  __typename?: 'CardPaymentDetails';
  cardBrand: Scalars['String']['output'];
  last4?: Maybe<Scalars['String']['output']>;
};

export type Company = HasMetafields & Node & {
  __typename?: 'Company';
  draftOrders: DraftOrderConnection;
  externalId?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  locations: CompanyLocationConnection;
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
  name: Scalars['String']['output'];
  orders: OrderConnection;
};


export type CompanyDraftOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<DraftOrderByCompanySortKeys>;
};


export type CompanyLocationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<CompanyLocationSortKeys>;
};


export type CompanyMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type CompanyMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};


export type CompanyOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<OrderByCompanySortKeys>;
};

export type CompanyAddress = Node & {
  __typename?: 'CompanyAddress';
  address1: Scalars['String']['output'];
  address2?: Maybe<Scalars['String']['output']>;
  city?: Maybe<Scalars['String']['output']>;
  companyName: Scalars['String']['output'];
  country?: Maybe<Scalars['String']['output']>;
  countryCode: CountryCode;
  createdAt: Scalars['DateTime']['output'];
  firstName?: Maybe<Scalars['String']['output']>;
  formattedAddress: Array<Scalars['String']['output']>;
  formattedArea?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastName?: Maybe<Scalars['String']['output']>;
  phone?: Maybe<Scalars['String']['output']>;
  province?: Maybe<Scalars['String']['output']>;
  recipient?: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTime']['output'];
  zip?: Maybe<Scalars['String']['output']>;
  zoneCode?: Maybe<Scalars['String']['output']>;
};


export type CompanyAddressFormattedAddressArgs = {
  withCompanyName?: InputMaybe<Scalars['Boolean']['input']>;
  withName?: InputMaybe<Scalars['Boolean']['input']>;
};

export type CompanyAddressInput = {
  address1?: InputMaybe<Scalars['String']['input']>;
  address2?: InputMaybe<Scalars['String']['input']>;
  city?: InputMaybe<Scalars['String']['input']>;
  countryCode?: InputMaybe<CountryCode>;
  firstName?: InputMaybe<Scalars['String']['input']>;
  lastName?: InputMaybe<Scalars['String']['input']>;
  phone?: InputMaybe<Scalars['String']['input']>;
  recipient?: InputMaybe<Scalars['String']['input']>;
  zip?: InputMaybe<Scalars['String']['input']>;
  zoneCode?: InputMaybe<Scalars['String']['input']>;
};

export type CompanyAddressType =
  | 'BILLING'
  | 'SHIPPING';

export type CompanyContact = Node & {
  __typename?: 'CompanyContact';
  company?: Maybe<Company>;
  customer: Customer;
  draftOrders: DraftOrderConnection;
  id: Scalars['ID']['output'];
  locations: CompanyLocationConnection;
  orders: OrderConnection;
  title?: Maybe<Scalars['String']['output']>;
};


export type CompanyContactDraftOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<DraftOrderSortKeys>;
};


export type CompanyContactLocationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<CompanyLocationSortKeys>;
};


export type CompanyContactOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<OrderByContactSortKeys>;
};

export type CompanyContactConnection = {
  __typename?: 'CompanyContactConnection';
  edges: Array<CompanyContactEdge>;
  nodes: Array<CompanyContact>;
  pageInfo: PageInfo;
};

export type CompanyContactEdge = {
  __typename?: 'CompanyContactEdge';
  cursor: Scalars['String']['output'];
  node: CompanyContact;
};

export type CompanyContactRole = Node & {
  __typename?: 'CompanyContactRole';
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  resourcePermission: Array<PermittedOperation>;
  resourcePermissions: Array<ResourcePermission>;
};


export type CompanyContactRoleResourcePermissionArgs = {
  resource: ResourceType;
};

export type CompanyContactRoleAssignment = Node & {
  __typename?: 'CompanyContactRoleAssignment';
  contact: CompanyContact;
  id: Scalars['ID']['output'];
  role: CompanyContactRole;
};

export type CompanyContactRoleAssignmentConnection = {
  __typename?: 'CompanyContactRoleAssignmentConnection';
  edges: Array<CompanyContactRoleAssignmentEdge>;
  nodes: Array<CompanyContactRoleAssignment>;
  pageInfo: PageInfo;
};

export type CompanyContactRoleAssignmentEdge = {
  __typename?: 'CompanyContactRoleAssignmentEdge';
  cursor: Scalars['String']['output'];
  node: CompanyContactRoleAssignment;
};

export type CompanyContactRoleAssignmentSortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'LOCATION_NAME'
  | 'UPDATED_AT';

export type CompanyContactSortKeys =
  | 'COMPANY_ID'
  | 'CREATED_AT'
  | 'EMAIL'
  | 'ID'
  | 'NAME'
  | 'NAME_EMAIL'
  | 'RELEVANCE'
  | 'TITLE'
  | 'UPDATED_AT';

export type CompanyLocation = HasMetafields & HasStoreCreditAccounts & Node & {
  __typename?: 'CompanyLocation';
  billingAddress?: Maybe<CompanyAddress>;
  buyerExperienceConfiguration?: Maybe<BuyerExperienceConfiguration>;
  contacts: CompanyContactConnection;
  draftOrders: DraftOrderConnection;
  externalId?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** @deprecated This `market` field will be removed in a future version of the API. */
  market: Market;
  marketCurrencyCode: CurrencyCode;
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
  name: Scalars['String']['output'];
  orders: OrderConnection;
  roleAssignments: CompanyContactRoleAssignmentConnection;
  shippingAddress?: Maybe<CompanyAddress>;
  storeCreditAccounts: StoreCreditAccountConnection;
  taxIdentifier?: Maybe<Scalars['String']['output']>;
};


export type CompanyLocationContactsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<CompanyContactSortKeys>;
};


export type CompanyLocationDraftOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<DraftOrderByLocationSortKeys>;
};


export type CompanyLocationMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type CompanyLocationMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};


export type CompanyLocationOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<OrderByLocationSortKeys>;
};


export type CompanyLocationRoleAssignmentsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<CompanyContactRoleAssignmentSortKeys>;
};


export type CompanyLocationStoreCreditAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
};

export type CompanyLocationAssignAddressPayload = {
  __typename?: 'CompanyLocationAssignAddressPayload';
  addresses?: Maybe<Array<CompanyAddress>>;
  userErrors: Array<BusinessCustomerUserError>;
};

export type CompanyLocationConnection = {
  __typename?: 'CompanyLocationConnection';
  edges: Array<CompanyLocationEdge>;
  nodes: Array<CompanyLocation>;
  pageInfo: PageInfo;
};

export type CompanyLocationEdge = {
  __typename?: 'CompanyLocationEdge';
  cursor: Scalars['String']['output'];
  node: CompanyLocation;
};

export type CompanyLocationSortKeys =
  | 'COMPANY_AND_LOCATION_NAME'
  | 'COMPANY_ID'
  | 'CREATED_AT'
  | 'ID'
  | 'NAME'
  | 'RELEVANCE'
  | 'UPDATED_AT';

export type Count = {
  __typename?: 'Count';
  count: Scalars['Int']['output'];
  precision: CountPrecision;
};

export type CountPrecision =
  | 'AT_LEAST'
  | 'EXACT';

export type CountryCode =
  | 'AC'
  | 'AD'
  | 'AE'
  | 'AF'
  | 'AG'
  | 'AI'
  | 'AL'
  | 'AM'
  | 'AN'
  | 'AO'
  | 'AR'
  | 'AT'
  | 'AU'
  | 'AW'
  | 'AX'
  | 'AZ'
  | 'BA'
  | 'BB'
  | 'BD'
  | 'BE'
  | 'BF'
  | 'BG'
  | 'BH'
  | 'BI'
  | 'BJ'
  | 'BL'
  | 'BM'
  | 'BN'
  | 'BO'
  | 'BQ'
  | 'BR'
  | 'BS'
  | 'BT'
  | 'BV'
  | 'BW'
  | 'BY'
  | 'BZ'
  | 'CA'
  | 'CC'
  | 'CD'
  | 'CF'
  | 'CG'
  | 'CH'
  | 'CI'
  | 'CK'
  | 'CL'
  | 'CM'
  | 'CN'
  | 'CO'
  | 'CR'
  | 'CU'
  | 'CV'
  | 'CW'
  | 'CX'
  | 'CY'
  | 'CZ'
  | 'DE'
  | 'DJ'
  | 'DK'
  | 'DM'
  | 'DO'
  | 'DZ'
  | 'EC'
  | 'EE'
  | 'EG'
  | 'EH'
  | 'ER'
  | 'ES'
  | 'ET'
  | 'FI'
  | 'FJ'
  | 'FK'
  | 'FO'
  | 'FR'
  | 'GA'
  | 'GB'
  | 'GD'
  | 'GE'
  | 'GF'
  | 'GG'
  | 'GH'
  | 'GI'
  | 'GL'
  | 'GM'
  | 'GN'
  | 'GP'
  | 'GQ'
  | 'GR'
  | 'GS'
  | 'GT'
  | 'GW'
  | 'GY'
  | 'HK'
  | 'HM'
  | 'HN'
  | 'HR'
  | 'HT'
  | 'HU'
  | 'ID'
  | 'IE'
  | 'IL'
  | 'IM'
  | 'IN'
  | 'IO'
  | 'IQ'
  | 'IR'
  | 'IS'
  | 'IT'
  | 'JE'
  | 'JM'
  | 'JO'
  | 'JP'
  | 'KE'
  | 'KG'
  | 'KH'
  | 'KI'
  | 'KM'
  | 'KN'
  | 'KP'
  | 'KR'
  | 'KW'
  | 'KY'
  | 'KZ'
  | 'LA'
  | 'LB'
  | 'LC'
  | 'LI'
  | 'LK'
  | 'LR'
  | 'LS'
  | 'LT'
  | 'LU'
  | 'LV'
  | 'LY'
  | 'MA'
  | 'MC'
  | 'MD'
  | 'ME'
  | 'MF'
  | 'MG'
  | 'MK'
  | 'ML'
  | 'MM'
  | 'MN'
  | 'MO'
  | 'MQ'
  | 'MR'
  | 'MS'
  | 'MT'
  | 'MU'
  | 'MV'
  | 'MW'
  | 'MX'
  | 'MY'
  | 'MZ'
  | 'NA'
  | 'NC'
  | 'NE'
  | 'NF'
  | 'NG'
  | 'NI'
  | 'NL'
  | 'NO'
  | 'NP'
  | 'NR'
  | 'NU'
  | 'NZ'
  | 'OM'
  | 'PA'
  | 'PE'
  | 'PF'
  | 'PG'
  | 'PH'
  | 'PK'
  | 'PL'
  | 'PM'
  | 'PN'
  | 'PS'
  | 'PT'
  | 'PY'
  | 'QA'
  | 'RE'
  | 'RO'
  | 'RS'
  | 'RU'
  | 'RW'
  | 'SA'
  | 'SB'
  | 'SC'
  | 'SD'
  | 'SE'
  | 'SG'
  | 'SH'
  | 'SI'
  | 'SJ'
  | 'SK'
  | 'SL'
  | 'SM'
  | 'SN'
  | 'SO'
  | 'SR'
  | 'SS'
  | 'ST'
  | 'SV'
  | 'SX'
  | 'SY'
  | 'SZ'
  | 'TA'
  | 'TC'
  | 'TD'
  | 'TF'
  | 'TG'
  | 'TH'
  | 'TJ'
  | 'TK'
  | 'TL'
  | 'TM'
  | 'TN'
  | 'TO'
  | 'TR'
  | 'TT'
  | 'TV'
  | 'TW'
  | 'TZ'
  | 'UA'
  | 'UG'
  | 'UM'
  | 'US'
  | 'UY'
  | 'UZ'
  | 'VA'
  | 'VC'
  | 'VE'
  | 'VG'
  | 'VN'
  | 'VU'
  | 'WF'
  | 'WS'
  | 'XK'
  | 'YE'
  | 'YT'
  | 'ZA'
  | 'ZM'
  | 'ZW'
  | 'ZZ';

export type CropRegion =
  | 'BOTTOM'
  | 'CENTER'
  | 'LEFT'
  | 'RIGHT'
  | 'TOP';

export type CurrencyCode =
  | 'AED'
  | 'AFN'
  | 'ALL'
  | 'AMD'
  | 'ANG'
  | 'AOA'
  | 'ARS'
  | 'AUD'
  | 'AWG'
  | 'AZN'
  | 'BAM'
  | 'BBD'
  | 'BDT'
  | 'BGN'
  | 'BHD'
  | 'BIF'
  | 'BMD'
  | 'BND'
  | 'BOB'
  | 'BRL'
  | 'BSD'
  | 'BTN'
  | 'BWP'
  | 'BYN'
  | 'BYR'
  | 'BZD'
  | 'CAD'
  | 'CDF'
  | 'CHF'
  | 'CLP'
  | 'CNY'
  | 'COP'
  | 'CRC'
  | 'CVE'
  | 'CZK'
  | 'DJF'
  | 'DKK'
  | 'DOP'
  | 'DZD'
  | 'EGP'
  | 'ERN'
  | 'ETB'
  | 'EUR'
  | 'FJD'
  | 'FKP'
  | 'GBP'
  | 'GEL'
  | 'GHS'
  | 'GIP'
  | 'GMD'
  | 'GNF'
  | 'GTQ'
  | 'GYD'
  | 'HKD'
  | 'HNL'
  | 'HRK'
  | 'HTG'
  | 'HUF'
  | 'IDR'
  | 'ILS'
  | 'INR'
  | 'IQD'
  | 'IRR'
  | 'ISK'
  | 'JEP'
  | 'JMD'
  | 'JOD'
  | 'JPY'
  | 'KES'
  | 'KGS'
  | 'KHR'
  | 'KID'
  | 'KMF'
  | 'KRW'
  | 'KWD'
  | 'KYD'
  | 'KZT'
  | 'LAK'
  | 'LBP'
  | 'LKR'
  | 'LRD'
  | 'LSL'
  | 'LTL'
  | 'LVL'
  | 'LYD'
  | 'MAD'
  | 'MDL'
  | 'MGA'
  | 'MKD'
  | 'MMK'
  | 'MNT'
  | 'MOP'
  | 'MRU'
  | 'MUR'
  | 'MVR'
  | 'MWK'
  | 'MXN'
  | 'MYR'
  | 'MZN'
  | 'NAD'
  | 'NGN'
  | 'NIO'
  | 'NOK'
  | 'NPR'
  | 'NZD'
  | 'OMR'
  | 'PAB'
  | 'PEN'
  | 'PGK'
  | 'PHP'
  | 'PKR'
  | 'PLN'
  | 'PYG'
  | 'QAR'
  | 'RON'
  | 'RSD'
  | 'RUB'
  | 'RWF'
  | 'SAR'
  | 'SBD'
  | 'SCR'
  | 'SDG'
  | 'SEK'
  | 'SGD'
  | 'SHP'
  | 'SLL'
  | 'SOS'
  | 'SRD'
  | 'SSP'
  | 'STD'
  | 'STN'
  | 'SYP'
  | 'SZL'
  | 'THB'
  | 'TJS'
  | 'TMT'
  | 'TND'
  | 'TOP'
  | 'TRY'
  | 'TTD'
  | 'TWD'
  | 'TZS'
  | 'UAH'
  | 'UGX'
  | 'USD'
  | 'USDC'
  | 'UYU'
  | 'UZS'
  | 'VED'
  | 'VEF'
  | 'VES'
  | 'VND'
  | 'VUV'
  | 'WST'
  | 'XAF'
  | 'XCD'
  | 'XOF'
  | 'XPF'
  | 'XXX'
  | 'YER'
  | 'ZAR'
  | 'ZMW';

export type Customer = HasMetafields & HasStoreCreditAccounts & Node & {
  __typename?: 'Customer';
  addresses: CustomerAddressConnection;
  companyContacts: CompanyContactConnection;
  creationDate: Scalars['DateTime']['output'];
  defaultAddress?: Maybe<CustomerAddress>;
  displayName: Scalars['String']['output'];
  draftOrders: DraftOrderConnection;
  emailAddress?: Maybe<CustomerEmailAddress>;
  firstName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  imageUrl: Scalars['URL']['output'];
  lastName?: Maybe<Scalars['String']['output']>;
  marketCurrencyCode: CurrencyCode;
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
  orders: OrderConnection;
  phoneNumber?: Maybe<CustomerPhoneNumber>;
  storeCreditAccounts: StoreCreditAccountConnection;
  subscriptionContract?: Maybe<SubscriptionContract>;
  subscriptionContracts: SubscriptionContractConnection;
  tags: Array<Scalars['String']['output']>;
};


export type CustomerAddressesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  skipDefault?: InputMaybe<Scalars['Boolean']['input']>;
};


export type CustomerCompanyContactsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type CustomerDraftOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<DraftOrderSortKeys>;
};


export type CustomerMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type CustomerMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};


export type CustomerOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<OrderSortKeys>;
};


export type CustomerStoreCreditAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
};


export type CustomerSubscriptionContractArgs = {
  id: Scalars['ID']['input'];
};


export type CustomerSubscriptionContractsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<SubscriptionContractsSortKeys>;
};

export type CustomerAddress = Node & {
  __typename?: 'CustomerAddress';
  address1?: Maybe<Scalars['String']['output']>;
  address2?: Maybe<Scalars['String']['output']>;
  city?: Maybe<Scalars['String']['output']>;
  company?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  firstName?: Maybe<Scalars['String']['output']>;
  formatted: Array<Scalars['String']['output']>;
  formattedArea?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastName?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  phoneNumber?: Maybe<Scalars['String']['output']>;
  province?: Maybe<Scalars['String']['output']>;
  territoryCode?: Maybe<CountryCode>;
  zip?: Maybe<Scalars['String']['output']>;
  zoneCode?: Maybe<Scalars['String']['output']>;
};


export type CustomerAddressFormattedArgs = {
  withCompany?: InputMaybe<Scalars['Boolean']['input']>;
  withName?: InputMaybe<Scalars['Boolean']['input']>;
};

export type CustomerAddressConnection = {
  __typename?: 'CustomerAddressConnection';
  edges: Array<CustomerAddressEdge>;
  nodes: Array<CustomerAddress>;
  pageInfo: PageInfo;
};

export type CustomerAddressCreatePayload = {
  __typename?: 'CustomerAddressCreatePayload';
  customerAddress?: Maybe<CustomerAddress>;
  userErrors: Array<UserErrorsCustomerAddressUserErrors>;
};

export type CustomerAddressDeletePayload = {
  __typename?: 'CustomerAddressDeletePayload';
  deletedAddressId?: Maybe<Scalars['ID']['output']>;
  userErrors: Array<UserErrorsCustomerAddressUserErrors>;
};

export type CustomerAddressEdge = {
  __typename?: 'CustomerAddressEdge';
  cursor: Scalars['String']['output'];
  node: CustomerAddress;
};

export type CustomerAddressInput = {
  address1?: InputMaybe<Scalars['String']['input']>;
  address2?: InputMaybe<Scalars['String']['input']>;
  city?: InputMaybe<Scalars['String']['input']>;
  company?: InputMaybe<Scalars['String']['input']>;
  firstName?: InputMaybe<Scalars['String']['input']>;
  lastName?: InputMaybe<Scalars['String']['input']>;
  phoneNumber?: InputMaybe<Scalars['String']['input']>;
  territoryCode?: InputMaybe<Scalars['String']['input']>;
  zip?: InputMaybe<Scalars['String']['input']>;
  zoneCode?: InputMaybe<Scalars['String']['input']>;
};

export type CustomerAddressUpdatePayload = {
  __typename?: 'CustomerAddressUpdatePayload';
  customerAddress?: Maybe<CustomerAddress>;
  userErrors: Array<UserErrorsCustomerAddressUserErrors>;
};

export type CustomerEmailAddress = {
  __typename?: 'CustomerEmailAddress';
  emailAddress?: Maybe<Scalars['String']['output']>;
  marketingState: EmailMarketingState;
};

export type CustomerEmailMarketingSubscribePayload = {
  __typename?: 'CustomerEmailMarketingSubscribePayload';
  emailAddress?: Maybe<CustomerEmailAddress>;
  userErrors: Array<UserErrorsCustomerEmailMarketingUserErrors>;
};

export type CustomerEmailMarketingUnsubscribePayload = {
  __typename?: 'CustomerEmailMarketingUnsubscribePayload';
  emailAddress?: Maybe<CustomerEmailAddress>;
  userErrors: Array<UserErrorsCustomerEmailMarketingUserErrors>;
};

export type CustomerMarketingConsent = {
  state: MarketingConsentState;
};

export type CustomerMarketingConsentInput = {
  state: MarketingConsentState;
};

export type CustomerPhoneNumber = {
  __typename?: 'CustomerPhoneNumber';
  /** @deprecated Use `smsMarketingConsent.state` instead. */
  marketingState: SmsMarketingState;
  phoneNumber: Scalars['String']['output'];
  smsMarketingConsent: CustomerSmsMarketingConsent;
  whatsAppMarketingConsent: CustomerWhatsAppMarketingConsent;
};

export type CustomerSmsMarketingConsent = CustomerMarketingConsent & {
  __typename?: 'CustomerSmsMarketingConsent';
  state: MarketingConsentState;
};

export type CustomerUpdateInput = {
  firstName?: InputMaybe<Scalars['String']['input']>;
  lastName?: InputMaybe<Scalars['String']['input']>;
};

export type CustomerUpdatePayload = {
  __typename?: 'CustomerUpdatePayload';
  customer?: Maybe<Customer>;
  userErrors: Array<UserErrorsCustomerUserErrors>;
};

export type CustomerWhatsAppMarketingConsent = CustomerMarketingConsent & {
  __typename?: 'CustomerWhatsAppMarketingConsent';
  state: MarketingConsentState;
};

export type CustomerWhatsAppMarketingConsentUpdateInput = {
  whatsAppMarketingConsent: CustomerMarketingConsentInput;
};

export type CustomerWhatsAppMarketingConsentUpdatePayload = {
  __typename?: 'CustomerWhatsAppMarketingConsentUpdatePayload';
  customerPhoneNumber?: Maybe<CustomerPhoneNumber>;
  userErrors: Array<UserErrorsCustomerMarketingConsentError>;
};

export type DepositConfiguration = DepositPercentage;

export type DepositPercentage = {
  __typename?: 'DepositPercentage';
  percentage: Scalars['Float']['output'];
};

export type DiscountAllocation = {
  __typename?: 'DiscountAllocation';
  allocatedAmount: MoneyV2;
  discountApplication: DiscountApplication;
};

export type DiscountApplication = {
  allocationMethod: DiscountApplicationAllocationMethod;
  targetSelection: DiscountApplicationTargetSelection;
  targetType: DiscountApplicationTargetType;
  value: PricingValue;
};

export type DiscountApplicationAllocationMethod =
  | 'ACROSS'
  | 'EACH'
  | 'ONE';

export type DiscountApplicationConnection = {
  __typename?: 'DiscountApplicationConnection';
  edges: Array<DiscountApplicationEdge>;
  nodes: Array<DiscountApplication>;
  pageInfo: PageInfo;
};

export type DiscountApplicationEdge = {
  __typename?: 'DiscountApplicationEdge';
  cursor: Scalars['String']['output'];
  node: DiscountApplication;
};

export type DiscountApplicationTargetSelection =
  | 'ALL'
  | 'ENTITLED'
  | 'EXPLICIT';

export type DiscountApplicationTargetType =
  | 'LINE_ITEM'
  | 'SHIPPING_LINE';

export type DiscountCodeApplication = DiscountApplication & {
  __typename?: 'DiscountCodeApplication';
  allocationMethod: DiscountApplicationAllocationMethod;
  code: Scalars['String']['output'];
  targetSelection: DiscountApplicationTargetSelection;
  targetType: DiscountApplicationTargetType;
  value: PricingValue;
};

export type DiscountTargetType =
  | 'LINE_ITEM'
  | 'SHIPPING_LINE';

export type DiscountType =
  | 'AUTOMATIC_DISCOUNT'
  | 'CODE_DISCOUNT'
  | 'MANUAL';

export type DisplayableError = {
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type Domain = Node & {
  __typename?: 'Domain';
  host: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  redirectHost?: Maybe<Scalars['String']['output']>;
  url: Scalars['URL']['output'];
};

export type DraftOrder = Node & {
  __typename?: 'DraftOrder';
  amountDueLater: MoneyV2;
  amountDueNow: MoneyV2;
  billingAddress?: Maybe<CustomerAddress>;
  createdAt: Scalars['DateTime']['output'];
  currencyCode: CurrencyCode;
  customer?: Maybe<Customer>;
  deposit?: Maybe<DepositConfiguration>;
  discountApplications: DiscountApplicationConnection;
  discountInformation: DraftOrderDiscountInformation;
  email?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  inReview: Scalars['Boolean']['output'];
  invoiceUrl?: Maybe<Scalars['URL']['output']>;
  lineItems: DraftOrderLineItemConnection;
  lineItemsSummary?: Maybe<DraftOrderLineItemsSummary>;
  name: Scalars['String']['output'];
  order?: Maybe<Order>;
  phone?: Maybe<Scalars['String']['output']>;
  purchasingEntity?: Maybe<PurchasingEntity>;
  requiresShipping: Scalars['Boolean']['output'];
  shippingAddress?: Maybe<CustomerAddress>;
  status: DraftOrderStatus;
  subtotalPrice: MoneyV2;
  taxExempt: Scalars['Boolean']['output'];
  taxesIncluded: Scalars['Boolean']['output'];
  totalLineItemsPrice: MoneyV2;
  totalPrice: MoneyV2;
  totalShippingPrice: MoneyV2;
  totalTax: MoneyV2;
  totalWeight: Scalars['UnsignedInt64']['output'];
  updatedAt: Scalars['DateTime']['output'];
};


export type DraftOrderDiscountApplicationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type DraftOrderLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  flattenComponents?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type DraftOrderAppliedDiscount = {
  __typename?: 'DraftOrderAppliedDiscount';
  discountValue: MoneyV2;
  title?: Maybe<Scalars['String']['output']>;
};

export type DraftOrderByCompanySortKeys =
  | 'CUSTOMER_NAME'
  | 'ID'
  | 'NUMBER'
  | 'RELEVANCE'
  | 'STATUS'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type DraftOrderByLocationSortKeys =
  | 'CUSTOMER_NAME'
  | 'ID'
  | 'NUMBER'
  | 'RELEVANCE'
  | 'STATUS'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type DraftOrderConnection = {
  __typename?: 'DraftOrderConnection';
  edges: Array<DraftOrderEdge>;
  nodes: Array<DraftOrder>;
  pageInfo: PageInfo;
};

export type DraftOrderDiscountInformation = {
  __typename?: 'DraftOrderDiscountInformation';
  appliedDiscount?: Maybe<DraftOrderAppliedDiscount>;
  totalDiscounts: MoneyV2;
};

export type DraftOrderEdge = {
  __typename?: 'DraftOrderEdge';
  cursor: Scalars['String']['output'];
  node: DraftOrder;
};

export type DraftOrderLineItem = Node & {
  __typename?: 'DraftOrderLineItem';
  approximateDiscountedUnitPrice: MoneyV2;
  components: Array<DraftOrderLineItem>;
  discountAllocations: Array<DiscountAllocation>;
  discountInformation: DraftOrderLineItemDiscountInformation;
  discountedTotal: MoneyV2;
  /** @deprecated Please use `approximateDiscountedUnitPrice` instead. */
  discountedUnitPrice: MoneyV2;
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  name: Scalars['String']['output'];
  originalTotal: MoneyV2;
  originalUnitPrice: MoneyV2;
  quantity: Scalars['Int']['output'];
  requiresShipping: Scalars['Boolean']['output'];
  sku?: Maybe<Scalars['String']['output']>;
  taxable: Scalars['Boolean']['output'];
  title: Scalars['String']['output'];
  variantTitle?: Maybe<Scalars['String']['output']>;
  vendor?: Maybe<Scalars['String']['output']>;
  weight?: Maybe<Weight>;
};


export type DraftOrderLineItemImageArgs = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};

export type DraftOrderLineItemConnection = {
  __typename?: 'DraftOrderLineItemConnection';
  edges: Array<DraftOrderLineItemEdge>;
  nodes: Array<DraftOrderLineItem>;
  pageInfo: PageInfo;
};

export type DraftOrderLineItemDiscountInformation = {
  __typename?: 'DraftOrderLineItemDiscountInformation';
  title?: Maybe<Scalars['String']['output']>;
  totalDiscount: MoneyV2;
};

export type DraftOrderLineItemEdge = {
  __typename?: 'DraftOrderLineItemEdge';
  cursor: Scalars['String']['output'];
  node: DraftOrderLineItem;
};

export type DraftOrderLineItemsSummary = {
  __typename?: 'DraftOrderLineItemsSummary';
  lineItemCount: Scalars['Int']['output'];
  totalQuantityOfLineItems: Scalars['Int']['output'];
};

export type DraftOrderSortKeys =
  | 'CUSTOMER_NAME'
  | 'ID'
  | 'NUMBER'
  | 'RELEVANCE'
  | 'STATUS'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type DraftOrderStatus =
  | 'COMPLETED'
  | 'INVOICE_SENT'
  | 'OPEN';

export type DutySale = Node & Sale & {
  __typename?: 'DutySale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type EmailMarketingState =
  | 'INVALID'
  | 'NOT_SUBSCRIBED'
  | 'PENDING'
  | 'REDACTED'
  | 'SUBSCRIBED'
  | 'UNSUBSCRIBED';

export type ExchangeLineItem = Node & {
  __typename?: 'ExchangeLineItem';
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  productHasOnlyDefaultVariant?: Maybe<Scalars['Boolean']['output']>;
  productId?: Maybe<Scalars['ID']['output']>;
  quantity: Scalars['Int']['output'];
  title?: Maybe<Scalars['String']['output']>;
  variantId?: Maybe<Scalars['ID']['output']>;
  variantSku?: Maybe<Scalars['String']['output']>;
  variantTitle?: Maybe<Scalars['String']['output']>;
};


export type ExchangeLineItemImageArgs = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};

export type ExchangeLineItemConnection = {
  __typename?: 'ExchangeLineItemConnection';
  edges: Array<ExchangeLineItemEdge>;
  nodes: Array<ExchangeLineItem>;
  pageInfo: PageInfo;
};

export type ExchangeLineItemEdge = {
  __typename?: 'ExchangeLineItemEdge';
  cursor: Scalars['String']['output'];
  node: ExchangeLineItem;
};

export type FeeSale = Node & Sale & {
  __typename?: 'FeeSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type Fulfillment = Node & {
  __typename?: 'Fulfillment';
  createdAt: Scalars['DateTime']['output'];
  estimatedDeliveryAt?: Maybe<Scalars['DateTime']['output']>;
  events: FulfillmentEventConnection;
  fulfillmentLineItems: FulfillmentLineItemConnection;
  id: Scalars['ID']['output'];
  isPickedUp: Scalars['Boolean']['output'];
  latestShipmentStatus?: Maybe<FulfillmentEventStatus>;
  requiresShipping: Scalars['Boolean']['output'];
  status?: Maybe<FulfillmentStatus>;
  trackingInformation: Array<TrackingInformation>;
  updatedAt: Scalars['DateTime']['output'];
};


export type FulfillmentEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<FulfillmentEventSortKeys>;
};


export type FulfillmentFulfillmentLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type FulfillmentConnection = {
  __typename?: 'FulfillmentConnection';
  edges: Array<FulfillmentEdge>;
  nodes: Array<Fulfillment>;
  pageInfo: PageInfo;
};

export type FulfillmentEdge = {
  __typename?: 'FulfillmentEdge';
  cursor: Scalars['String']['output'];
  node: Fulfillment;
};

export type FulfillmentEvent = Node & {
  __typename?: 'FulfillmentEvent';
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  status: FulfillmentEventStatus;
};

export type FulfillmentEventConnection = {
  __typename?: 'FulfillmentEventConnection';
  edges: Array<FulfillmentEventEdge>;
  nodes: Array<FulfillmentEvent>;
  pageInfo: PageInfo;
};

export type FulfillmentEventEdge = {
  __typename?: 'FulfillmentEventEdge';
  cursor: Scalars['String']['output'];
  node: FulfillmentEvent;
};

export type FulfillmentEventSortKeys =
  | 'HAPPENED_AT'
  | 'ID';

export type FulfillmentEventStatus =
  | 'ATTEMPTED_DELIVERY'
  | 'CARRIER_PICKED_UP'
  | 'CONFIRMED'
  | 'DELAYED'
  | 'DELIVERED'
  | 'FAILURE'
  | 'IN_TRANSIT'
  | 'LABEL_PRINTED'
  | 'LABEL_PURCHASED'
  | 'OUT_FOR_DELIVERY'
  | 'PICKED_UP'
  | 'READY_FOR_PICKUP';

export type FulfillmentLineItem = Node & {
  __typename?: 'FulfillmentLineItem';
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  quantity?: Maybe<Scalars['Int']['output']>;
};

export type FulfillmentLineItemConnection = {
  __typename?: 'FulfillmentLineItemConnection';
  edges: Array<FulfillmentLineItemEdge>;
  nodes: Array<FulfillmentLineItem>;
  pageInfo: PageInfo;
};

export type FulfillmentLineItemEdge = {
  __typename?: 'FulfillmentLineItemEdge';
  cursor: Scalars['String']['output'];
  node: FulfillmentLineItem;
};

export type FulfillmentSortKeys =
  | 'CREATED_AT'
  | 'ID';

export type FulfillmentStatus =
  | 'CANCELLED'
  | 'ERROR'
  | 'FAILURE'
  | 'OPEN'
  | 'PENDING'
  | 'SUCCESS';

export type GenericFile = Media & {
  __typename?: 'GenericFile';
  alt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  mediaContentType: MediaContentType;
  mimeType?: Maybe<Scalars['String']['output']>;
  originalFileSize?: Maybe<Scalars['Int']['output']>;
  previewImage?: Maybe<Image>;
  url?: Maybe<Scalars['URL']['output']>;
};

export type GiftCardDetails = {
  __typename?: 'GiftCardDetails';
  balance: MoneyV2;
  last4: Scalars['String']['output'];
};

export type GiftCardSale = Node & Sale & {
  __typename?: 'GiftCardSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type HasCompareDigest = {
  compareDigest: Scalars['String']['output'];
};

export type HasMetafields = {
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
};


export type HasMetafieldsMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type HasMetafieldsMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};

export type HasMetafieldsIdentifier = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};

export type HasStoreCreditAccounts = {
  storeCreditAccounts: StoreCreditAccountConnection;
};


export type HasStoreCreditAccountsStoreCreditAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
};

export type Image = {
  __typename?: 'Image';
  altText?: Maybe<Scalars['String']['output']>;
  height?: Maybe<Scalars['Int']['output']>;
  id?: Maybe<Scalars['ID']['output']>;
  /** @deprecated Use `url` instead. */
  originalSrc: Scalars['URL']['output'];
  /** @deprecated Use `url` instead. */
  src: Scalars['URL']['output'];
  thumbhash?: Maybe<Scalars['String']['output']>;
  /** @deprecated Use `url(transform:)` instead */
  transformedSrc: Scalars['URL']['output'];
  url: Scalars['URL']['output'];
  width?: Maybe<Scalars['Int']['output']>;
};


export type ImageTransformedSrcArgs = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  preferredContentType?: InputMaybe<ImageContentType>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};


export type ImageUrlArgs = {
  transform?: InputMaybe<ImageTransformInput>;
};

export type ImageContentType =
  | 'JPG'
  | 'PNG'
  | 'WEBP';

export type ImageTransformInput = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  preferredContentType?: InputMaybe<ImageContentType>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};

export type LanguageCode =
  | 'AF'
  | 'AK'
  | 'AM'
  | 'AR'
  | 'AS'
  | 'AZ'
  | 'BE'
  | 'BG'
  | 'BM'
  | 'BN'
  | 'BO'
  | 'BR'
  | 'BS'
  | 'CA'
  | 'CE'
  | 'CKB'
  | 'CS'
  | 'CU'
  | 'CY'
  | 'DA'
  | 'DE'
  | 'DZ'
  | 'EE'
  | 'EL'
  | 'EN'
  | 'EO'
  | 'ES'
  | 'ET'
  | 'EU'
  | 'FA'
  | 'FF'
  | 'FI'
  | 'FIL'
  | 'FO'
  | 'FR'
  | 'FY'
  | 'GA'
  | 'GD'
  | 'GL'
  | 'GU'
  | 'GV'
  | 'HA'
  | 'HE'
  | 'HI'
  | 'HR'
  | 'HU'
  | 'HY'
  | 'IA'
  | 'ID'
  | 'IG'
  | 'II'
  | 'IS'
  | 'IT'
  | 'JA'
  | 'JV'
  | 'KA'
  | 'KI'
  | 'KK'
  | 'KL'
  | 'KM'
  | 'KN'
  | 'KO'
  | 'KS'
  | 'KU'
  | 'KW'
  | 'KY'
  | 'LB'
  | 'LG'
  | 'LN'
  | 'LO'
  | 'LT'
  | 'LU'
  | 'LV'
  | 'MG'
  | 'MI'
  | 'MK'
  | 'ML'
  | 'MN'
  | 'MR'
  | 'MS'
  | 'MT'
  | 'MY'
  | 'NB'
  | 'ND'
  | 'NE'
  | 'NL'
  | 'NN'
  | 'NO'
  | 'OM'
  | 'OR'
  | 'OS'
  | 'PA'
  | 'PL'
  | 'PS'
  | 'PT'
  | 'PT_BR'
  | 'PT_PT'
  | 'QU'
  | 'RM'
  | 'RN'
  | 'RO'
  | 'RU'
  | 'RW'
  | 'SA'
  | 'SC'
  | 'SD'
  | 'SE'
  | 'SG'
  | 'SI'
  | 'SK'
  | 'SL'
  | 'SN'
  | 'SO'
  | 'SQ'
  | 'SR'
  | 'SU'
  | 'SV'
  | 'SW'
  | 'TA'
  | 'TE'
  | 'TG'
  | 'TH'
  | 'TI'
  | 'TK'
  | 'TO'
  | 'TR'
  | 'TT'
  | 'UG'
  | 'UK'
  | 'UR'
  | 'UZ'
  | 'VI'
  | 'VO'
  | 'WO'
  | 'XH'
  | 'YI'
  | 'YO'
  | 'ZH'
  | 'ZH_CN'
  | 'ZH_TW'
  | 'ZU';

export type LineItem = Node & {
  __typename?: 'LineItem';
  currentTotalPrice?: Maybe<MoneyV2>;
  customAttributes: Array<Attribute>;
  discountAllocations: Array<DiscountAllocation>;
  giftCard: Scalars['Boolean']['output'];
  group?: Maybe<LineItemGroup>;
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  name: Scalars['String']['output'];
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  price?: Maybe<MoneyV2>;
  productId?: Maybe<Scalars['ID']['output']>;
  productType?: Maybe<Scalars['String']['output']>;
  quantity: Scalars['Int']['output'];
  refundableQuantity: Scalars['Int']['output'];
  requiresShipping: Scalars['Boolean']['output'];
  sku?: Maybe<Scalars['String']['output']>;
  suggestedReturnReasonDefinitions?: Maybe<ReturnReasonDefinitionConnection>;
  title: Scalars['String']['output'];
  totalDiscount: MoneyV2;
  totalPrice?: Maybe<MoneyV2>;
  unitPrice?: Maybe<UnitPrice>;
  variantId?: Maybe<Scalars['ID']['output']>;
  variantOptions?: Maybe<Array<LineItemVariantOption>>;
  variantTitle?: Maybe<Scalars['String']['output']>;
  vendor?: Maybe<Scalars['String']['output']>;
};


export type LineItemSuggestedReturnReasonDefinitionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type LineItemConnection = {
  __typename?: 'LineItemConnection';
  edges: Array<LineItemEdge>;
  nodes: Array<LineItem>;
  pageInfo: PageInfo;
};

export type LineItemDiscountInformation = {
  __typename?: 'LineItemDiscountInformation';
  discountValue: MoneyV2;
  title?: Maybe<Scalars['String']['output']>;
};

export type LineItemEdge = {
  __typename?: 'LineItemEdge';
  cursor: Scalars['String']['output'];
  node: LineItem;
};

export type LineItemGroup = Node & {
  __typename?: 'LineItemGroup';
  currentTotalPrice?: Maybe<MoneyV2>;
  discountInformation?: Maybe<Array<LineItemDiscountInformation>>;
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  quantity: Scalars['Int']['output'];
  title: Scalars['String']['output'];
  totalPriceBeforeDiscounts?: Maybe<MoneyV2>;
};


export type LineItemGroupImageArgs = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};

export type LineItemVariantOption = {
  __typename?: 'LineItemVariantOption';
  name: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type ManualDiscountApplication = DiscountApplication & {
  __typename?: 'ManualDiscountApplication';
  allocationMethod: DiscountApplicationAllocationMethod;
  description?: Maybe<Scalars['String']['output']>;
  targetSelection: DiscountApplicationTargetSelection;
  targetType: DiscountApplicationTargetType;
  title: Scalars['String']['output'];
  value: PricingValue;
};

export type Market = Node & {
  __typename?: 'Market';
  handle: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  webPresence?: Maybe<MarketWebPresence>;
};

export type MarketWebPresence = Node & {
  __typename?: 'MarketWebPresence';
  domain?: Maybe<Domain>;
  id: Scalars['ID']['output'];
  rootUrls: Array<MarketWebPresenceRootUrl>;
  subfolderSuffix?: Maybe<Scalars['String']['output']>;
};

export type MarketWebPresenceRootUrl = {
  __typename?: 'MarketWebPresenceRootUrl';
  locale: Scalars['String']['output'];
  url: Scalars['URL']['output'];
};

export type MarketingConsentState =
  | 'NEVER_SUBSCRIBED'
  | 'PENDING'
  | 'REDACTED'
  | 'SUBSCRIBED'
  | 'UNSUBSCRIBED';

export type Media = {
  alt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  mediaContentType: MediaContentType;
  previewImage?: Maybe<Image>;
};

export type MediaContentType =
  | 'GENERIC_FILE'
  | 'IMAGE'
  | 'MODEL_3D'
  | 'VIDEO';

export type MediaImage = Media & {
  __typename?: 'MediaImage';
  alt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  mediaContentType: MediaContentType;
  previewImage?: Maybe<Image>;
};

export type Metafield = HasCompareDigest & Node & {
  __typename?: 'Metafield';
  compareDigest: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  /**
   * @deprecated This field will be removed in a future release. Use the `description` on the metafield definition instead.
   *
   */
  description?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  jsonValue: Scalars['JSON']['output'];
  key: Scalars['String']['output'];
  namespace: Scalars['String']['output'];
  reference?: Maybe<MetafieldReference>;
  references?: Maybe<MetafieldReferenceConnection>;
  type: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
  value: Scalars['String']['output'];
};


export type MetafieldReferencesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type MetafieldIdentifier = {
  __typename?: 'MetafieldIdentifier';
  key: Scalars['String']['output'];
  namespace: Scalars['String']['output'];
  ownerId: Scalars['ID']['output'];
};

export type MetafieldIdentifierInput = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
  ownerId: Scalars['ID']['input'];
};

export type MetafieldReference = GenericFile | MediaImage | Metaobject | Model3d | Video;

export type MetafieldReferenceConnection = {
  __typename?: 'MetafieldReferenceConnection';
  edges: Array<MetafieldReferenceEdge>;
  nodes: Array<MetafieldReference>;
  pageInfo: PageInfo;
};

export type MetafieldReferenceEdge = {
  __typename?: 'MetafieldReferenceEdge';
  cursor: Scalars['String']['output'];
  node: MetafieldReference;
};

export type MetafieldsDeletePayload = {
  __typename?: 'MetafieldsDeletePayload';
  deletedMetafields?: Maybe<Array<Maybe<MetafieldIdentifier>>>;
  userErrors: Array<MetafieldsDeleteUserError>;
};

export type MetafieldsDeleteUserError = DisplayableError & {
  __typename?: 'MetafieldsDeleteUserError';
  code?: Maybe<MetafieldsDeleteUserErrorCode>;
  elementIndex?: Maybe<Scalars['Int']['output']>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type MetafieldsDeleteUserErrorCode =
  | 'BLANK'
  | 'DISALLOWED_OWNER_TYPE'
  | 'INVALID'
  | 'METAFIELD_DELETE_FAILED'
  | 'NOT_FOUND';

export type MetafieldsSetInput = {
  compareDigest?: InputMaybe<Scalars['String']['input']>;
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
  ownerId: Scalars['ID']['input'];
  type?: InputMaybe<Scalars['String']['input']>;
  value: Scalars['String']['input'];
};

export type MetafieldsSetPayload = {
  __typename?: 'MetafieldsSetPayload';
  metafields?: Maybe<Array<Metafield>>;
  userErrors: Array<MetafieldsSetUserError>;
};

export type MetafieldsSetUserError = DisplayableError & {
  __typename?: 'MetafieldsSetUserError';
  code?: Maybe<MetafieldsSetUserErrorCode>;
  elementIndex?: Maybe<Scalars['Int']['output']>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type MetafieldsSetUserErrorCode =
  | 'APP_NOT_AUTHORIZED'
  | 'BLANK'
  | 'DISALLOWED_OWNER_TYPE'
  | 'INCLUSION'
  | 'INVALID'
  | 'INVALID_COMPARE_DIGEST'
  | 'INVALID_TYPE'
  | 'INVALID_VALUE'
  | 'LESS_THAN_OR_EQUAL_TO'
  | 'PRESENT'
  | 'STALE_OBJECT'
  | 'TAKEN'
  | 'TOO_LONG'
  | 'TOO_SHORT';

export type Metaobject = Node & {
  __typename?: 'Metaobject';
  field?: Maybe<MetaobjectField>;
  fields: Array<MetaobjectField>;
  handle: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  type: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
};


export type MetaobjectFieldArgs = {
  key: Scalars['String']['input'];
};

export type MetaobjectField = {
  __typename?: 'MetaobjectField';
  key: Scalars['String']['output'];
  reference?: Maybe<MetafieldReference>;
  type: Scalars['String']['output'];
  value?: Maybe<Scalars['String']['output']>;
};

export type Model3d = Media & {
  __typename?: 'Model3d';
  alt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  mediaContentType: MediaContentType;
  previewImage?: Maybe<Image>;
  sources: Array<Model3dSource>;
};

export type Model3dSource = {
  __typename?: 'Model3dSource';
  filesize: Scalars['Int']['output'];
  format: Scalars['String']['output'];
  mimeType: Scalars['String']['output'];
  url: Scalars['String']['output'];
};

export type MoneyBag = {
  __typename?: 'MoneyBag';
  presentmentMoney: MoneyV2;
  shopMoney: MoneyV2;
};

export type MoneyV2 = {
  __typename?: 'MoneyV2';
  amount: Scalars['Decimal']['output'];
  currencyCode: CurrencyCode;
};

export type Mutation = {
  __typename?: 'Mutation';
  companyLocationAssignAddress?: Maybe<CompanyLocationAssignAddressPayload>;
  customerAddressCreate?: Maybe<CustomerAddressCreatePayload>;
  customerAddressDelete?: Maybe<CustomerAddressDeletePayload>;
  customerAddressUpdate?: Maybe<CustomerAddressUpdatePayload>;
  customerEmailMarketingSubscribe?: Maybe<CustomerEmailMarketingSubscribePayload>;
  customerEmailMarketingUnsubscribe?: Maybe<CustomerEmailMarketingUnsubscribePayload>;
  customerUpdate?: Maybe<CustomerUpdatePayload>;
  customerWhatsAppMarketingConsentUpdate?: Maybe<CustomerWhatsAppMarketingConsentUpdatePayload>;
  metafieldsDelete?: Maybe<MetafieldsDeletePayload>;
  metafieldsSet?: Maybe<MetafieldsSetPayload>;
  orderRequestReturn?: Maybe<OrderRequestReturnPayload>;
  /** @deprecated The `storefrontCustomerAccessTokenCreate` is deprecated and will be removed in a future version. Please see [the changelog](https://shopify.dev/changelog/deprecation-of-storefrontcustomeraccesstokencreate-mutation) for more information. */
  storefrontCustomerAccessTokenCreate?: Maybe<StorefrontCustomerAccessTokenCreatePayload>;
  subscriptionBillingCycleSkip?: Maybe<SubscriptionBillingCycleSkipPayload>;
  subscriptionBillingCycleUnskip?: Maybe<SubscriptionBillingCycleUnskipPayload>;
  subscriptionContractActivate?: Maybe<SubscriptionContractActivatePayload>;
  subscriptionContractCancel?: Maybe<SubscriptionContractCancelPayload>;
  subscriptionContractFetchDeliveryOptions?: Maybe<SubscriptionContractFetchDeliveryOptionsPayload>;
  subscriptionContractPause?: Maybe<SubscriptionContractPausePayload>;
  subscriptionContractSelectDeliveryMethod?: Maybe<SubscriptionContractSelectDeliveryMethodPayload>;
};


export type MutationCompanyLocationAssignAddressArgs = {
  address: CompanyAddressInput;
  addressTypes: Array<CompanyAddressType>;
  locationId: Scalars['ID']['input'];
};


export type MutationCustomerAddressCreateArgs = {
  address: CustomerAddressInput;
  defaultAddress?: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationCustomerAddressDeleteArgs = {
  addressId: Scalars['ID']['input'];
};


export type MutationCustomerAddressUpdateArgs = {
  address?: InputMaybe<CustomerAddressInput>;
  addressId: Scalars['ID']['input'];
  defaultAddress?: InputMaybe<Scalars['Boolean']['input']>;
};


export type MutationCustomerUpdateArgs = {
  input: CustomerUpdateInput;
};


export type MutationCustomerWhatsAppMarketingConsentUpdateArgs = {
  input: CustomerWhatsAppMarketingConsentUpdateInput;
};


export type MutationMetafieldsDeleteArgs = {
  metafields: Array<MetafieldIdentifierInput>;
};


export type MutationMetafieldsSetArgs = {
  metafields: Array<MetafieldsSetInput>;
};


export type MutationOrderRequestReturnArgs = {
  orderId: Scalars['ID']['input'];
  requestedLineItems: Array<RequestedLineItemInput>;
};


export type MutationSubscriptionBillingCycleSkipArgs = {
  billingCycleInput: SubscriptionBillingCycleInput;
};


export type MutationSubscriptionBillingCycleUnskipArgs = {
  billingCycleInput: SubscriptionBillingCycleInput;
};


export type MutationSubscriptionContractActivateArgs = {
  subscriptionContractId: Scalars['ID']['input'];
};


export type MutationSubscriptionContractCancelArgs = {
  subscriptionContractId: Scalars['ID']['input'];
};


export type MutationSubscriptionContractFetchDeliveryOptionsArgs = {
  address?: InputMaybe<CustomerAddressInput>;
  subscriptionContractId: Scalars['ID']['input'];
};


export type MutationSubscriptionContractPauseArgs = {
  subscriptionContractId: Scalars['ID']['input'];
};


export type MutationSubscriptionContractSelectDeliveryMethodArgs = {
  deliveryMethodInput: SubscriptionDeliveryMethodInput;
  subscriptionContractId: Scalars['ID']['input'];
  subscriptionDeliveryOptionsResultToken: Scalars['String']['input'];
};

export type Node = {
  id: Scalars['ID']['output'];
};

export type NonReturnableLineItem = {
  __typename?: 'NonReturnableLineItem';
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
  quantityDetails: Array<NonReturnableQuantityDetail>;
};

export type NonReturnableLineItemConnection = {
  __typename?: 'NonReturnableLineItemConnection';
  edges: Array<NonReturnableLineItemEdge>;
  nodes: Array<NonReturnableLineItem>;
  pageInfo: PageInfo;
};

export type NonReturnableLineItemEdge = {
  __typename?: 'NonReturnableLineItemEdge';
  cursor: Scalars['String']['output'];
  node: NonReturnableLineItem;
};

export type NonReturnableQuantityDetail = {
  __typename?: 'NonReturnableQuantityDetail';
  quantity: Scalars['Int']['output'];
  reasonCode: NonReturnableReason;
};

export type NonReturnableReason =
  | 'FINAL_SALE'
  | 'OTHER'
  | 'RETURNED'
  | 'RETURN_WINDOW_EXPIRED'
  | 'UNFULFILLED';

export type Order = HasMetafields & Node & {
  __typename?: 'Order';
  agreements: SalesAgreementConnection;
  billingAddress?: Maybe<CustomerAddress>;
  cancelReason?: Maybe<OrderCancelReason>;
  cancelledAt?: Maybe<Scalars['DateTime']['output']>;
  confirmationNumber?: Maybe<Scalars['String']['output']>;
  createdAt: Scalars['DateTime']['output'];
  currencyCode: CurrencyCode;
  customer?: Maybe<Customer>;
  customerLocale?: Maybe<Scalars['String']['output']>;
  discountApplications: DiscountApplicationConnection;
  draftOrder?: Maybe<DraftOrder>;
  edited: Scalars['Boolean']['output'];
  email?: Maybe<Scalars['String']['output']>;
  financialStatus?: Maybe<OrderFinancialStatus>;
  fulfillmentStatus: OrderFulfillmentStatus;
  fulfillments: FulfillmentConnection;
  id: Scalars['ID']['output'];
  lineItems: LineItemConnection;
  locationName?: Maybe<Scalars['String']['output']>;
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
  name: Scalars['String']['output'];
  note?: Maybe<Scalars['String']['output']>;
  number: Scalars['Int']['output'];
  paymentInformation?: Maybe<OrderPaymentInformation>;
  phone?: Maybe<Scalars['String']['output']>;
  poNumber?: Maybe<Scalars['String']['output']>;
  processedAt: Scalars['DateTime']['output'];
  purchasingEntity?: Maybe<PurchasingEntity>;
  refunds: Array<Refund>;
  requiresShipping: Scalars['Boolean']['output'];
  returnInformation: OrderReturnInformation;
  returns: ReturnConnection;
  shippingAddress?: Maybe<CustomerAddress>;
  shippingDiscountAllocations: Array<DiscountAllocation>;
  shippingLine?: Maybe<ShippingLine>;
  statusPageUrl: Scalars['URL']['output'];
  subscriptionContracts?: Maybe<SubscriptionContractConnection>;
  subtotal?: Maybe<MoneyV2>;
  totalDuties?: Maybe<MoneyV2>;
  totalPrice: MoneyV2;
  totalRefunded: MoneyV2;
  totalShipping: MoneyV2;
  totalTax?: Maybe<MoneyV2>;
  totalTip?: Maybe<MoneyV2>;
  transactions: Array<OrderTransaction>;
  updatedAt: Scalars['DateTime']['output'];
};


export type OrderAgreementsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type OrderDiscountApplicationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type OrderFulfillmentsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<FulfillmentSortKeys>;
};


export type OrderLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type OrderMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type OrderMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};


export type OrderReturnsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<ReturnSortKeys>;
};


export type OrderSubscriptionContractsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<SubscriptionContractsSortKeys>;
};

export type OrderActionType =
  | 'ORDER'
  | 'ORDER_EDIT'
  | 'REFUND'
  | 'RETURN'
  | 'UNKNOWN';

export type OrderAgreement = Node & SalesAgreement & {
  __typename?: 'OrderAgreement';
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  order: Order;
  reason: OrderActionType;
  sales: SaleConnection;
};


export type OrderAgreementSalesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type OrderByCompanySortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'ORDER_NUMBER'
  | 'PROCESSED_AT'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type OrderByContactSortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'ORDER_NUMBER'
  | 'PROCESSED_AT'
  | 'PURCHASING_COMPANY_LOCATION_NAME'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type OrderByLocationSortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'ORDER_NUMBER'
  | 'PROCESSED_AT'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type OrderCancelReason =
  | 'CUSTOMER'
  | 'DECLINED'
  | 'FRAUD'
  | 'INVENTORY'
  | 'OTHER'
  | 'STAFF';

export type OrderConnection = {
  __typename?: 'OrderConnection';
  edges: Array<OrderEdge>;
  nodes: Array<Order>;
  pageInfo: PageInfo;
};

export type OrderEdge = {
  __typename?: 'OrderEdge';
  cursor: Scalars['String']['output'];
  node: Order;
};

export type OrderEditAgreement = Node & SalesAgreement & {
  __typename?: 'OrderEditAgreement';
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  reason: OrderActionType;
  sales: SaleConnection;
};


export type OrderEditAgreementSalesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type OrderFinancialStatus =
  | 'AUTHORIZED'
  | 'EXPIRED'
  | 'PAID'
  | 'PARTIALLY_PAID'
  | 'PARTIALLY_REFUNDED'
  | 'PENDING'
  | 'REFUNDED'
  | 'VOIDED';

export type OrderFulfillmentStatus =
  | 'FULFILLED'
  | 'IN_PROGRESS'
  | 'ON_HOLD'
  | 'OPEN'
  | 'PARTIALLY_FULFILLED'
  | 'PENDING_FULFILLMENT'
  | 'RESTOCKED'
  | 'SCHEDULED'
  | 'UNFULFILLED';

export type OrderNonReturnableSummary = {
  __typename?: 'OrderNonReturnableSummary';
  nonReturnableReasons: Array<NonReturnableReason>;
};

export type OrderPaymentInformation = {
  __typename?: 'OrderPaymentInformation';
  paymentCollectionUrl?: Maybe<Scalars['URL']['output']>;
  paymentStatus?: Maybe<OrderPaymentStatus>;
  paymentTerms?: Maybe<PaymentTerms>;
  totalOutstandingAmount: MoneyV2;
  totalPaidAmount: MoneyV2;
};

export type OrderPaymentStatus =
  | 'AUTHORIZED'
  | 'EXPIRED'
  | 'PAID'
  | 'PARTIALLY_PAID'
  | 'PARTIALLY_REFUNDED'
  | 'PENDING'
  | 'REFUNDED'
  | 'VOIDED';

export type OrderRequestReturnPayload = {
  __typename?: 'OrderRequestReturnPayload';
  return?: Maybe<Return>;
  userErrors: Array<ReturnUserError>;
};

export type OrderReturnInformation = {
  __typename?: 'OrderReturnInformation';
  hasRestockingFee: Scalars['Boolean']['output'];
  hasReturnShippingFee: Scalars['Boolean']['output'];
  nonReturnableLineItems: NonReturnableLineItemConnection;
  nonReturnableSummary?: Maybe<OrderNonReturnableSummary>;
  returnFees: Array<ReturnFee>;
  returnShippingMethodNote?: Maybe<Scalars['String']['output']>;
  returnShippingMethods: Array<ReturnShippingMethod>;
  returnableLineItems: ReturnableLineItemConnection;
};


export type OrderReturnInformationNonReturnableLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type OrderReturnInformationReturnableLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type OrderSortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'ORDER_NUMBER'
  | 'PROCESSED_AT'
  | 'TOTAL_PRICE'
  | 'UPDATED_AT';

export type OrderTransaction = Node & PaymentIcon & {
  __typename?: 'OrderTransaction';
  createdAt: Scalars['DateTime']['output'];
  giftCardDetails?: Maybe<GiftCardDetails>;
  id: Scalars['ID']['output'];
  kind?: Maybe<OrderTransactionKind>;
  order?: Maybe<Order>;
  paymentDetails?: Maybe<PaymentDetails>;
  paymentIcon?: Maybe<PaymentIconImage>;
  processedAt?: Maybe<Scalars['DateTime']['output']>;
  status?: Maybe<OrderTransactionStatus>;
  transactionAmount: MoneyBag;
  transactionParentId?: Maybe<Scalars['String']['output']>;
  type: OrderTransactionType;
  typeDetails?: Maybe<TransactionTypeDetails>;
};

export type OrderTransactionKind =
  | 'AUTHORIZATION'
  | 'CAPTURE'
  | 'CARD_APPROVAL'
  | 'CARD_DECLINE'
  | 'CHANGE'
  | 'EMV_AUTHORIZATION'
  | 'REFUND'
  | 'REFUND_EMV_INITIATE'
  | 'SALE'
  | 'SUGGESTED_REFUND'
  | 'VOID';

export type OrderTransactionStatus =
  | 'ERROR'
  | 'FAILURE'
  | 'PENDING'
  | 'PENDING_AUTHENTICATION'
  | 'SUCCESS';

export type OrderTransactionType =
  | 'BANK_DEPOSIT'
  | 'CARD'
  | 'CASH_ON_DELIVERY'
  | 'CUSTOM'
  | 'GIFT_CARD'
  | 'MANUAL'
  | 'MONEY_ORDER'
  | 'SHOPIFY_INSTALLMENTS'
  | 'STORE_CREDIT';

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type PaymentDetails = CardPaymentDetails;

export type PaymentIcon = {
  paymentIcon?: Maybe<PaymentIconImage>;
};

export type PaymentIconImage = Node & {
  __typename?: 'PaymentIconImage';
  altText?: Maybe<Scalars['String']['output']>;
  height?: Maybe<Scalars['Int']['output']>;
  id: Scalars['ID']['output'];
  /** @deprecated Use `url` instead. */
  originalSrc: Scalars['URL']['output'];
  /** @deprecated Use `url` instead. */
  src: Scalars['URL']['output'];
  thumbhash?: Maybe<Scalars['String']['output']>;
  /** @deprecated Use `url(transform:)` instead */
  transformedSrc: Scalars['URL']['output'];
  url: Scalars['URL']['output'];
  width?: Maybe<Scalars['Int']['output']>;
};


export type PaymentIconImageTransformedSrcArgs = {
  crop?: InputMaybe<CropRegion>;
  maxHeight?: InputMaybe<Scalars['Int']['input']>;
  maxWidth?: InputMaybe<Scalars['Int']['input']>;
  preferredContentType?: InputMaybe<ImageContentType>;
  scale?: InputMaybe<Scalars['Int']['input']>;
};


export type PaymentIconImageUrlArgs = {
  transform?: InputMaybe<ImageTransformInput>;
};

export type PaymentSchedule = Node & {
  __typename?: 'PaymentSchedule';
  /** @deprecated Use `totalBalance` instead. */
  amount: MoneyV2;
  completed: Scalars['Boolean']['output'];
  completedAt?: Maybe<Scalars['DateTime']['output']>;
  dueAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  totalBalance: MoneyV2;
};

export type PaymentScheduleConnection = {
  __typename?: 'PaymentScheduleConnection';
  edges: Array<PaymentScheduleEdge>;
  nodes: Array<PaymentSchedule>;
  pageInfo: PageInfo;
};

export type PaymentScheduleEdge = {
  __typename?: 'PaymentScheduleEdge';
  cursor: Scalars['String']['output'];
  node: PaymentSchedule;
};

export type PaymentTerms = Node & {
  __typename?: 'PaymentTerms';
  id: Scalars['ID']['output'];
  nextDueAt?: Maybe<Scalars['DateTime']['output']>;
  overdue: Scalars['Boolean']['output'];
  paymentSchedules: PaymentScheduleConnection;
  paymentTermsName: Scalars['String']['output'];
};


export type PaymentTermsPaymentSchedulesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type PermittedOperation =
  | 'ADD'
  | 'ALL'
  | 'DELETE'
  | 'EDIT'
  | 'USE'
  | 'VIEW';

export type PickupAddress = {
  __typename?: 'PickupAddress';
  address1: Scalars['String']['output'];
  address2?: Maybe<Scalars['String']['output']>;
  city: Scalars['String']['output'];
  countryCode: CountryCode;
  phone?: Maybe<Scalars['String']['output']>;
  zip?: Maybe<Scalars['String']['output']>;
  zoneCode?: Maybe<Scalars['String']['output']>;
};

export type PricingPercentageValue = {
  __typename?: 'PricingPercentageValue';
  percentage: Scalars['Float']['output'];
};

export type PricingValue = MoneyV2 | PricingPercentageValue;

export type ProductSale = Node & Sale & {
  __typename?: 'ProductSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type PurchasingCompany = {
  __typename?: 'PurchasingCompany';
  company: Company;
  contact?: Maybe<CompanyContact>;
  location: CompanyLocation;
};

export type PurchasingEntity = Customer | PurchasingCompany;

export type QueryRoot = {
  __typename?: 'QueryRoot';
  company?: Maybe<Company>;
  companyLocation?: Maybe<CompanyLocation>;
  customer: Customer;
  draftOrder?: Maybe<DraftOrder>;
  order?: Maybe<Order>;
  return?: Maybe<Return>;
  returnCalculate?: Maybe<CalculatedReturn>;
  shop: Shop;
};


export type QueryRootCompanyArgs = {
  id: Scalars['ID']['input'];
};


export type QueryRootCompanyLocationArgs = {
  id: Scalars['ID']['input'];
};


export type QueryRootDraftOrderArgs = {
  id: Scalars['ID']['input'];
};


export type QueryRootOrderArgs = {
  id: Scalars['ID']['input'];
};


export type QueryRootReturnArgs = {
  id: Scalars['ID']['input'];
};


export type QueryRootReturnCalculateArgs = {
  input: CalculateReturnInput;
};

export type Refund = Node & {
  __typename?: 'Refund';
  createdAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  returnName?: Maybe<Scalars['String']['output']>;
  totalRefunded: MoneyV2;
  updatedAt: Scalars['DateTime']['output'];
};

export type RefundAgreement = Node & SalesAgreement & {
  __typename?: 'RefundAgreement';
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  reason: OrderActionType;
  refund: Refund;
  sales: SaleConnection;
};


export type RefundAgreementSalesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type RequestedLineItemInput = {
  customerNote?: InputMaybe<Scalars['String']['input']>;
  lineItemId: Scalars['ID']['input'];
  quantity: Scalars['Int']['input'];
  /** @deprecated Use `returnReasonDefinitionId` instead. This field will be removed in the future. */
  returnReason?: InputMaybe<ReturnReason>;
  returnReasonDefinitionId?: InputMaybe<Scalars['ID']['input']>;
};

export type ResourcePermission = {
  __typename?: 'ResourcePermission';
  permittedOperations: Array<PermittedOperation>;
  resource: ResourceType;
};

export type ResourceType =
  | 'BUSINESS_PROFILE'
  | 'COMPANY'
  | 'COMPANY_CONTACT'
  | 'COMPANY_CONTACT_ROLE'
  | 'COMPANY_LOCATION'
  | 'COMPANY_LOCATION_BILLING_ADDRESS'
  | 'COMPANY_LOCATION_SHIPPING_ADDRESS'
  | 'COMPANY_TAX_EXEMPTION'
  | 'DRAFT_ORDER'
  | 'ORDER'
  | 'PAYMENT_METHOD';

export type Return = Node & {
  __typename?: 'Return';
  closedAt?: Maybe<Scalars['DateTime']['output']>;
  createdAt?: Maybe<Scalars['DateTime']['output']>;
  exchangeLineItems: ExchangeLineItemConnection;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  returnLineItems: ReturnLineItemTypeConnection;
  returnLineItemsCount?: Maybe<Count>;
  reverseDeliveries: ReverseDeliveryConnection;
  status: ReturnStatus;
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
};


export type ReturnExchangeLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  includeRemovedItems?: InputMaybe<Scalars['Boolean']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type ReturnReturnLineItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type ReturnReverseDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type ReturnAgreement = Node & SalesAgreement & {
  __typename?: 'ReturnAgreement';
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  reason: OrderActionType;
  return: Return;
  sales: SaleConnection;
};


export type ReturnAgreementSalesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type ReturnConnection = {
  __typename?: 'ReturnConnection';
  edges: Array<ReturnEdge>;
  nodes: Array<Return>;
  pageInfo: PageInfo;
};

export type ReturnEdge = {
  __typename?: 'ReturnEdge';
  cursor: Scalars['String']['output'];
  node: Return;
};

export type ReturnErrorCode =
  | 'ALREADY_EXISTS'
  | 'BLANK'
  | 'CREATION_FAILED'
  | 'EQUAL_TO'
  | 'FEATURE_NOT_ENABLED'
  | 'GREATER_THAN'
  | 'GREATER_THAN_OR_EQUAL_TO'
  | 'INCLUSION'
  | 'INTERNAL_ERROR'
  | 'INVALID'
  | 'INVALID_STATE'
  | 'LESS_THAN'
  | 'LESS_THAN_OR_EQUAL_TO'
  | 'NOTIFICATION_FAILED'
  | 'NOT_AUTHORIZED'
  | 'NOT_A_NUMBER'
  | 'NOT_EDITABLE'
  | 'NOT_FOUND'
  | 'PRESENT'
  | 'TAKEN'
  | 'TOO_BIG'
  | 'TOO_LONG'
  | 'TOO_MANY_ARGUMENTS'
  | 'TOO_SHORT'
  | 'WRONG_LENGTH';

export type ReturnFee = {
  amountSet: MoneyBag;
  title: Scalars['String']['output'];
};

export type ReturnFinancialSummary = {
  __typename?: 'ReturnFinancialSummary';
  restockingFeeSubtotalSet: MoneyBag;
  returnShippingFeeSubtotalSet: MoneyBag;
  returnSubtotalSet: MoneyBag;
  returnSubtotalWithCartDiscountSet: MoneyBag;
  returnTotalSet: MoneyBag;
  returnTotalTaxSet: MoneyBag;
};

export type ReturnLineItem = Node & ReturnLineItemType & {
  __typename?: 'ReturnLineItem';
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
  returnReason: ReturnReason;
  returnReasonDefinition?: Maybe<ReturnReasonDefinition>;
};

export type ReturnLineItemType = {
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
  /** @deprecated Use `returnReasonDefinition` instead. This field will be removed in the future. */
  returnReason: ReturnReason;
  returnReasonDefinition?: Maybe<ReturnReasonDefinition>;
};

export type ReturnLineItemTypeConnection = {
  __typename?: 'ReturnLineItemTypeConnection';
  edges: Array<ReturnLineItemTypeEdge>;
  nodes: Array<ReturnLineItemType>;
  pageInfo: PageInfo;
};

export type ReturnLineItemTypeEdge = {
  __typename?: 'ReturnLineItemTypeEdge';
  cursor: Scalars['String']['output'];
  node: ReturnLineItemType;
};

export type ReturnReason =
  | 'COLOR'
  | 'DEFECTIVE'
  | 'NOT_AS_DESCRIBED'
  | 'OTHER'
  | 'SIZE_TOO_LARGE'
  | 'SIZE_TOO_SMALL'
  | 'STYLE'
  | 'UNKNOWN'
  | 'UNWANTED'
  | 'WRONG_ITEM';

export type ReturnReasonDefinition = Node & {
  __typename?: 'ReturnReasonDefinition';
  deleted: Scalars['Boolean']['output'];
  handle: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type ReturnReasonDefinitionConnection = {
  __typename?: 'ReturnReasonDefinitionConnection';
  edges: Array<ReturnReasonDefinitionEdge>;
  nodes: Array<ReturnReasonDefinition>;
  pageInfo: PageInfo;
};

export type ReturnReasonDefinitionEdge = {
  __typename?: 'ReturnReasonDefinitionEdge';
  cursor: Scalars['String']['output'];
  node: ReturnReasonDefinition;
};

export type ReturnRestockingFee = ReturnFee & {
  __typename?: 'ReturnRestockingFee';
  amountSet: MoneyBag;
  title: Scalars['String']['output'];
};

export type ReturnShippingFee = ReturnFee & {
  __typename?: 'ReturnShippingFee';
  amountSet: MoneyBag;
  title: Scalars['String']['output'];
};

export type ReturnShippingMethod =
  | 'CUSTOMER_PROVIDED_LABEL'
  | 'MERCHANT_PROVIDED_LABEL';

export type ReturnSortKeys =
  | 'CREATED_AT'
  | 'ID';

export type ReturnStatus =
  | 'CANCELED'
  | 'CLOSED'
  | 'DECLINED'
  | 'OPEN'
  | 'REQUESTED';

export type ReturnUserError = DisplayableError & {
  __typename?: 'ReturnUserError';
  code?: Maybe<ReturnErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type ReturnableLineItem = {
  __typename?: 'ReturnableLineItem';
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
};

export type ReturnableLineItemConnection = {
  __typename?: 'ReturnableLineItemConnection';
  edges: Array<ReturnableLineItemEdge>;
  nodes: Array<ReturnableLineItem>;
  pageInfo: PageInfo;
};

export type ReturnableLineItemEdge = {
  __typename?: 'ReturnableLineItemEdge';
  cursor: Scalars['String']['output'];
  node: ReturnableLineItem;
};

export type ReverseDelivery = Node & {
  __typename?: 'ReverseDelivery';
  customerGeneratedLabel: Scalars['Boolean']['output'];
  deliverable?: Maybe<ReverseDeliveryDeliverable>;
  id: Scalars['ID']['output'];
};

export type ReverseDeliveryConnection = {
  __typename?: 'ReverseDeliveryConnection';
  edges: Array<ReverseDeliveryEdge>;
  nodes: Array<ReverseDelivery>;
  pageInfo: PageInfo;
};

export type ReverseDeliveryDeliverable = ReverseDeliveryShippingDeliverable;

export type ReverseDeliveryEdge = {
  __typename?: 'ReverseDeliveryEdge';
  cursor: Scalars['String']['output'];
  node: ReverseDelivery;
};

export type ReverseDeliveryLabel = {
  __typename?: 'ReverseDeliveryLabel';
  createdAt: Scalars['DateTime']['output'];
  publicFileUrl?: Maybe<Scalars['URL']['output']>;
  updatedAt: Scalars['DateTime']['output'];
};

export type ReverseDeliveryShippingDeliverable = {
  __typename?: 'ReverseDeliveryShippingDeliverable';
  label?: Maybe<ReverseDeliveryLabel>;
  tracking?: Maybe<ReverseDeliveryTracking>;
};

export type ReverseDeliveryTracking = {
  __typename?: 'ReverseDeliveryTracking';
  carrierName?: Maybe<Scalars['String']['output']>;
  trackingNumber?: Maybe<Scalars['String']['output']>;
  trackingUrl?: Maybe<Scalars['URL']['output']>;
};

export type Sale = {
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type SaleActionType =
  | 'ORDER'
  | 'RETURN'
  | 'UNKNOWN'
  | 'UPDATE';

export type SaleConnection = {
  __typename?: 'SaleConnection';
  edges: Array<SaleEdge>;
  nodes: Array<Sale>;
  pageInfo: PageInfo;
};

export type SaleEdge = {
  __typename?: 'SaleEdge';
  cursor: Scalars['String']['output'];
  node: Sale;
};

export type SaleLineType =
  | 'ADDITIONAL_FEE'
  | 'ADJUSTMENT'
  | 'DUTY'
  | 'FEE'
  | 'GIFT_CARD'
  | 'PRODUCT'
  | 'SHIPPING'
  | 'TIP'
  | 'UNKNOWN';

export type SaleTax = Node & {
  __typename?: 'SaleTax';
  amount: MoneyV2;
  id: Scalars['ID']['output'];
  taxLine: TaxLine;
};

export type SalesAgreement = {
  happenedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  reason: OrderActionType;
  sales: SaleConnection;
};


export type SalesAgreementSalesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type SalesAgreementConnection = {
  __typename?: 'SalesAgreementConnection';
  edges: Array<SalesAgreementEdge>;
  nodes: Array<SalesAgreement>;
  pageInfo: PageInfo;
};

export type SalesAgreementEdge = {
  __typename?: 'SalesAgreementEdge';
  cursor: Scalars['String']['output'];
  node: SalesAgreement;
};

export type ScriptDiscountApplication = DiscountApplication & {
  __typename?: 'ScriptDiscountApplication';
  allocationMethod: DiscountApplicationAllocationMethod;
  targetSelection: DiscountApplicationTargetSelection;
  targetType: DiscountApplicationTargetType;
  title: Scalars['String']['output'];
  value: PricingValue;
};

export type ShippingLine = {
  __typename?: 'ShippingLine';
  handle?: Maybe<Scalars['String']['output']>;
  originalPrice: MoneyV2;
  title: Scalars['String']['output'];
};

export type ShippingLineSale = Node & Sale & {
  __typename?: 'ShippingLineSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type Shop = HasMetafields & Node & {
  __typename?: 'Shop';
  email: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  metafield?: Maybe<Metafield>;
  metafields: Array<Maybe<Metafield>>;
  myshopifyDomain: Scalars['String']['output'];
  name: Scalars['String']['output'];
  shopPolicies: Array<ShopPolicy>;
  url: Scalars['URL']['output'];
};


export type ShopMetafieldArgs = {
  key: Scalars['String']['input'];
  namespace: Scalars['String']['input'];
};


export type ShopMetafieldsArgs = {
  identifiers: Array<HasMetafieldsIdentifier>;
};

export type ShopPolicy = Node & {
  __typename?: 'ShopPolicy';
  body: Scalars['HTML']['output'];
  handle: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  title: Scalars['String']['output'];
  url: Scalars['URL']['output'];
};

export type SmsMarketingState =
  | 'NOT_SUBSCRIBED'
  | 'PENDING'
  | 'REDACTED'
  | 'SUBSCRIBED'
  | 'UNSUBSCRIBED';

export type StoreCreditAccount = Node & {
  __typename?: 'StoreCreditAccount';
  balance: MoneyV2;
  id: Scalars['ID']['output'];
  transactions: StoreCreditAccountTransactionConnection;
};


export type StoreCreditAccountTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  query?: InputMaybe<Scalars['String']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<TransactionSortKeys>;
};

export type StoreCreditAccountConnection = {
  __typename?: 'StoreCreditAccountConnection';
  edges: Array<StoreCreditAccountEdge>;
  nodes: Array<StoreCreditAccount>;
  pageInfo: PageInfo;
};

export type StoreCreditAccountCreditTransaction = Node & StoreCreditAccountTransaction & {
  __typename?: 'StoreCreditAccountCreditTransaction';
  account: StoreCreditAccount;
  amount: MoneyV2;
  balanceAfterTransaction: MoneyV2;
  createdAt: Scalars['DateTime']['output'];
  event: StoreCreditSystemEvent;
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  origin?: Maybe<StoreCreditAccountTransactionOrigin>;
  remainingAmount: MoneyV2;
};

export type StoreCreditAccountDebitRevertTransaction = Node & StoreCreditAccountTransaction & {
  __typename?: 'StoreCreditAccountDebitRevertTransaction';
  account: StoreCreditAccount;
  amount: MoneyV2;
  balanceAfterTransaction: MoneyV2;
  createdAt: Scalars['DateTime']['output'];
  debitTransaction: StoreCreditAccountDebitTransaction;
  event: StoreCreditSystemEvent;
  id: Scalars['ID']['output'];
  origin?: Maybe<StoreCreditAccountTransactionOrigin>;
};

export type StoreCreditAccountDebitTransaction = Node & StoreCreditAccountTransaction & {
  __typename?: 'StoreCreditAccountDebitTransaction';
  account: StoreCreditAccount;
  amount: MoneyV2;
  balanceAfterTransaction: MoneyV2;
  createdAt: Scalars['DateTime']['output'];
  event: StoreCreditSystemEvent;
  id: Scalars['ID']['output'];
  origin?: Maybe<StoreCreditAccountTransactionOrigin>;
};

export type StoreCreditAccountEdge = {
  __typename?: 'StoreCreditAccountEdge';
  cursor: Scalars['String']['output'];
  node: StoreCreditAccount;
};

export type StoreCreditAccountExpirationTransaction = StoreCreditAccountTransaction & {
  __typename?: 'StoreCreditAccountExpirationTransaction';
  account: StoreCreditAccount;
  amount: MoneyV2;
  balanceAfterTransaction: MoneyV2;
  createdAt: Scalars['DateTime']['output'];
  creditTransaction: StoreCreditAccountCreditTransaction;
  event: StoreCreditSystemEvent;
  origin?: Maybe<StoreCreditAccountTransactionOrigin>;
};

export type StoreCreditAccountTransaction = {
  account: StoreCreditAccount;
  amount: MoneyV2;
  balanceAfterTransaction: MoneyV2;
  createdAt: Scalars['DateTime']['output'];
  event: StoreCreditSystemEvent;
  origin?: Maybe<StoreCreditAccountTransactionOrigin>;
};

export type StoreCreditAccountTransactionConnection = {
  __typename?: 'StoreCreditAccountTransactionConnection';
  edges: Array<StoreCreditAccountTransactionEdge>;
  nodes: Array<StoreCreditAccountTransaction>;
  pageInfo: PageInfo;
};

export type StoreCreditAccountTransactionEdge = {
  __typename?: 'StoreCreditAccountTransactionEdge';
  cursor: Scalars['String']['output'];
  node: StoreCreditAccountTransaction;
};

export type StoreCreditAccountTransactionOrigin = OrderTransaction;

export type StoreCreditSystemEvent =
  | 'ADJUSTMENT'
  | 'ORDER_CANCELLATION'
  | 'ORDER_PAYMENT'
  | 'ORDER_REFUND'
  | 'PAYMENT_FAILURE'
  | 'PAYMENT_RETURNED'
  | 'TAX_FINALIZATION';

export type StorefrontCustomerAccessTokenCreatePayload = {
  __typename?: 'StorefrontCustomerAccessTokenCreatePayload';
  customerAccessToken?: Maybe<Scalars['String']['output']>;
  userErrors: Array<UserErrorsStorefrontCustomerAccessTokenCreateUserErrors>;
};

export type SubscriptionAnchor = SubscriptionMonthDayAnchor | SubscriptionWeekDayAnchor | SubscriptionYearDayAnchor;

export type SubscriptionBillingCycle = {
  __typename?: 'SubscriptionBillingCycle';
  billingAttemptExpectedDate: Scalars['DateTime']['output'];
  cycleEndAt: Scalars['DateTime']['output'];
  cycleIndex: Scalars['Int']['output'];
  cycleStartAt: Scalars['DateTime']['output'];
  edited: Scalars['Boolean']['output'];
  skipped: Scalars['Boolean']['output'];
  status: SubscriptionBillingCycleBillingCycleStatus;
};

export type SubscriptionBillingCycleBillingCycleStatus =
  | 'BILLED'
  | 'UNBILLED';

export type SubscriptionBillingCycleConnection = {
  __typename?: 'SubscriptionBillingCycleConnection';
  edges: Array<SubscriptionBillingCycleEdge>;
  nodes: Array<SubscriptionBillingCycle>;
  pageInfo: PageInfo;
};

export type SubscriptionBillingCycleEdge = {
  __typename?: 'SubscriptionBillingCycleEdge';
  cursor: Scalars['String']['output'];
  node: SubscriptionBillingCycle;
};

export type SubscriptionBillingCycleInput = {
  contractId: Scalars['ID']['input'];
  selector: SubscriptionBillingCycleSelector;
};

export type SubscriptionBillingCycleSelector = {
  date?: InputMaybe<Scalars['DateTime']['input']>;
  index?: InputMaybe<Scalars['Int']['input']>;
};

export type SubscriptionBillingCycleSkipPayload = {
  __typename?: 'SubscriptionBillingCycleSkipPayload';
  billingCycle?: Maybe<SubscriptionBillingCycle>;
  userErrors: Array<SubscriptionBillingCycleSkipUserError>;
};

export type SubscriptionBillingCycleSkipUserError = DisplayableError & {
  __typename?: 'SubscriptionBillingCycleSkipUserError';
  code?: Maybe<SubscriptionBillingCycleSkipUserErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type SubscriptionBillingCycleSkipUserErrorCode =
  | 'INVALID';

export type SubscriptionBillingCycleUnskipPayload = {
  __typename?: 'SubscriptionBillingCycleUnskipPayload';
  billingCycle?: Maybe<SubscriptionBillingCycle>;
  userErrors: Array<SubscriptionBillingCycleUnskipUserError>;
};

export type SubscriptionBillingCycleUnskipUserError = DisplayableError & {
  __typename?: 'SubscriptionBillingCycleUnskipUserError';
  code?: Maybe<SubscriptionBillingCycleUnskipUserErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type SubscriptionBillingCycleUnskipUserErrorCode =
  | 'INVALID';

export type SubscriptionBillingCyclesSortKeys =
  | 'CYCLE_END_AT'
  | 'CYCLE_INDEX'
  | 'ID';

export type SubscriptionBillingPolicy = {
  __typename?: 'SubscriptionBillingPolicy';
  anchors: Array<SubscriptionAnchor>;
  interval: SubscriptionInterval;
  intervalCount?: Maybe<Count>;
  maxCycles?: Maybe<Scalars['Int']['output']>;
  minCycles?: Maybe<Scalars['Int']['output']>;
};

export type SubscriptionContract = Node & SubscriptionContractBase & {
  __typename?: 'SubscriptionContract';
  billingPolicy: SubscriptionBillingPolicy;
  createdAt: Scalars['DateTime']['output'];
  currencyCode: CurrencyCode;
  customAttributes: Array<Attribute>;
  deliveryMethod?: Maybe<SubscriptionDeliveryMethod>;
  deliveryPolicy: SubscriptionDeliveryPolicy;
  deliveryPrice: MoneyV2;
  discounts?: Maybe<SubscriptionDiscountConnection>;
  id: Scalars['ID']['output'];
  lastBillingAttemptErrorType?: Maybe<SubscriptionContractLastBillingErrorType>;
  lastPaymentStatus?: Maybe<SubscriptionContractLastPaymentStatus>;
  lines: SubscriptionLineConnection;
  linesCount?: Maybe<Count>;
  nextBillingDate?: Maybe<Scalars['DateTime']['output']>;
  note?: Maybe<Scalars['String']['output']>;
  orders: OrderConnection;
  originOrder?: Maybe<Order>;
  revisionId: Scalars['UnsignedInt64']['output'];
  status: SubscriptionContractSubscriptionStatus;
  upcomingBillingCycles: SubscriptionBillingCycleConnection;
  updatedAt: Scalars['DateTime']['output'];
};


export type SubscriptionContractDiscountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type SubscriptionContractLinesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type SubscriptionContractOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type SubscriptionContractUpcomingBillingCyclesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
  sortKey?: InputMaybe<SubscriptionBillingCyclesSortKeys>;
};

export type SubscriptionContractActivatePayload = {
  __typename?: 'SubscriptionContractActivatePayload';
  contract?: Maybe<SubscriptionContract>;
  userErrors: Array<SubscriptionContractStatusUpdateUserError>;
};

export type SubscriptionContractBase = {
  currencyCode: CurrencyCode;
  customAttributes: Array<Attribute>;
  deliveryMethod?: Maybe<SubscriptionDeliveryMethod>;
  deliveryPrice: MoneyV2;
  discounts?: Maybe<SubscriptionDiscountConnection>;
  lines: SubscriptionLineConnection;
  linesCount?: Maybe<Count>;
  note?: Maybe<Scalars['String']['output']>;
  orders: OrderConnection;
  updatedAt: Scalars['DateTime']['output'];
};


export type SubscriptionContractBaseDiscountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type SubscriptionContractBaseLinesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};


export type SubscriptionContractBaseOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type SubscriptionContractCancelPayload = {
  __typename?: 'SubscriptionContractCancelPayload';
  contract?: Maybe<SubscriptionContract>;
  userErrors: Array<SubscriptionContractStatusUpdateUserError>;
};

export type SubscriptionContractConnection = {
  __typename?: 'SubscriptionContractConnection';
  edges: Array<SubscriptionContractEdge>;
  nodes: Array<SubscriptionContract>;
  pageInfo: PageInfo;
};

export type SubscriptionContractEdge = {
  __typename?: 'SubscriptionContractEdge';
  cursor: Scalars['String']['output'];
  node: SubscriptionContract;
};

export type SubscriptionContractFetchDeliveryOptionsPayload = {
  __typename?: 'SubscriptionContractFetchDeliveryOptionsPayload';
  deliveryOptionsResult?: Maybe<SubscriptionDeliveryOptionsResult>;
  userErrors: Array<SubscriptionContractUserError>;
};

export type SubscriptionContractLastBillingErrorType =
  | 'CUSTOMER_ERROR'
  | 'INVENTORY_ERROR'
  | 'OTHER'
  | 'PAYMENT_ERROR';

export type SubscriptionContractLastPaymentStatus =
  | 'FAILED'
  | 'SUCCEEDED';

export type SubscriptionContractPausePayload = {
  __typename?: 'SubscriptionContractPausePayload';
  contract?: Maybe<SubscriptionContract>;
  userErrors: Array<SubscriptionContractStatusUpdateUserError>;
};

export type SubscriptionContractSelectDeliveryMethodPayload = {
  __typename?: 'SubscriptionContractSelectDeliveryMethodPayload';
  contract?: Maybe<SubscriptionContract>;
  userErrors: Array<SubscriptionContractUserError>;
};

export type SubscriptionContractStatusUpdateErrorCode =
  | 'HAS_FUTURE_EDITS'
  | 'INVALID'
  | 'SUBSCRIPTION_CONTRACT_DOES_NOT_EXIST';

export type SubscriptionContractStatusUpdateUserError = DisplayableError & {
  __typename?: 'SubscriptionContractStatusUpdateUserError';
  code?: Maybe<SubscriptionContractStatusUpdateErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type SubscriptionContractSubscriptionStatus =
  | 'ACTIVE'
  | 'CANCELLED'
  | 'EXPIRED'
  | 'FAILED'
  | 'PAUSED'
  | 'STALE';

export type SubscriptionContractUserError = DisplayableError & {
  __typename?: 'SubscriptionContractUserError';
  code?: Maybe<SubscriptionContractUserErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type SubscriptionContractUserErrorCode =
  | 'BLANK'
  | 'HAS_FUTURE_EDITS'
  | 'INVALID'
  | 'PAYMENT_INSTRUMENT_DOES_NOT_EXIST'
  | 'SUBSCRIPTION_CONTRACT_DOES_NOT_EXIST';

export type SubscriptionContractsSortKeys =
  | 'CREATED_AT'
  | 'ID'
  | 'STATUS'
  | 'UPDATED_AT';

export type SubscriptionDeliveryMethod = SubscriptionDeliveryMethodLocalDelivery | SubscriptionDeliveryMethodPickup | SubscriptionDeliveryMethodShipping;

export type SubscriptionDeliveryMethodInput = {
  localDelivery?: InputMaybe<SubscriptionDeliveryMethodLocalDeliveryInput>;
  pickup?: InputMaybe<SubscriptionDeliveryMethodPickupInput>;
  shipping?: InputMaybe<SubscriptionDeliveryMethodShippingInput>;
};

export type SubscriptionDeliveryMethodLocalDelivery = {
  __typename?: 'SubscriptionDeliveryMethodLocalDelivery';
  address: SubscriptionMailingAddress;
  localDeliveryOption: SubscriptionDeliveryMethodLocalDeliveryOption;
};

export type SubscriptionDeliveryMethodLocalDeliveryInput = {
  deliveryAddress?: InputMaybe<CustomerAddressInput>;
  instructions?: InputMaybe<Scalars['String']['input']>;
  phone: Scalars['String']['input'];
};

export type SubscriptionDeliveryMethodLocalDeliveryOption = {
  __typename?: 'SubscriptionDeliveryMethodLocalDeliveryOption';
  description?: Maybe<Scalars['String']['output']>;
  instructions?: Maybe<Scalars['String']['output']>;
  phone: Scalars['String']['output'];
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionDeliveryMethodPickup = {
  __typename?: 'SubscriptionDeliveryMethodPickup';
  pickupOption: SubscriptionDeliveryMethodPickupOption;
};

export type SubscriptionDeliveryMethodPickupInput = {
  locationId: Scalars['ID']['input'];
};

export type SubscriptionDeliveryMethodPickupOption = {
  __typename?: 'SubscriptionDeliveryMethodPickupOption';
  description?: Maybe<Scalars['String']['output']>;
  pickupAddress: PickupAddress;
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionDeliveryMethodShipping = {
  __typename?: 'SubscriptionDeliveryMethodShipping';
  address: SubscriptionMailingAddress;
  shippingOption: SubscriptionDeliveryMethodShippingOption;
};

export type SubscriptionDeliveryMethodShippingInput = {
  shippingAddress?: InputMaybe<CustomerAddressInput>;
};

export type SubscriptionDeliveryMethodShippingOption = {
  __typename?: 'SubscriptionDeliveryMethodShippingOption';
  description?: Maybe<Scalars['String']['output']>;
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionDeliveryOption = SubscriptionLocalDeliveryOption | SubscriptionPickupOption | SubscriptionShippingOption;

export type SubscriptionDeliveryOptionsResult = SubscriptionDeliveryOptionsResultFailure | SubscriptionDeliveryOptionsResultSuccess;

export type SubscriptionDeliveryOptionsResultFailure = {
  __typename?: 'SubscriptionDeliveryOptionsResultFailure';
  message?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionDeliveryOptionsResultSuccess = {
  __typename?: 'SubscriptionDeliveryOptionsResultSuccess';
  deliveryOptions: Array<SubscriptionDeliveryOption>;
  token: Scalars['String']['output'];
};

export type SubscriptionDeliveryPolicy = {
  __typename?: 'SubscriptionDeliveryPolicy';
  anchors: Array<SubscriptionAnchor>;
  interval: SubscriptionInterval;
  intervalCount?: Maybe<Count>;
};

export type SubscriptionDiscount = {
  __typename?: 'SubscriptionDiscount';
  appliesToAllLines: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  lines?: Maybe<SubscriptionLineConnection>;
  recurringCycleLimit?: Maybe<Scalars['Int']['output']>;
  targetType: DiscountTargetType;
  title?: Maybe<Scalars['String']['output']>;
  type: DiscountType;
  usageCount?: Maybe<Count>;
  value: SubscriptionDiscountValue;
};


export type SubscriptionDiscountLinesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  reverse?: InputMaybe<Scalars['Boolean']['input']>;
};

export type SubscriptionDiscountAllocation = {
  __typename?: 'SubscriptionDiscountAllocation';
  amount: MoneyV2;
  discount: SubscriptionDiscount;
};

export type SubscriptionDiscountConnection = {
  __typename?: 'SubscriptionDiscountConnection';
  edges: Array<SubscriptionDiscountEdge>;
  nodes: Array<SubscriptionDiscount>;
  pageInfo: PageInfo;
};

export type SubscriptionDiscountEdge = {
  __typename?: 'SubscriptionDiscountEdge';
  cursor: Scalars['String']['output'];
  node: SubscriptionDiscount;
};

export type SubscriptionDiscountFixedAmountValue = {
  __typename?: 'SubscriptionDiscountFixedAmountValue';
  amount: MoneyV2;
  appliesOnEachItem: Scalars['Boolean']['output'];
};

export type SubscriptionDiscountPercentageValue = {
  __typename?: 'SubscriptionDiscountPercentageValue';
  percentage: Scalars['Int']['output'];
};

export type SubscriptionDiscountValue = SubscriptionDiscountFixedAmountValue | SubscriptionDiscountPercentageValue;

export type SubscriptionInterval =
  | 'DAY'
  | 'MONTH'
  | 'WEEK'
  | 'YEAR';

export type SubscriptionLine = {
  __typename?: 'SubscriptionLine';
  currentPrice: MoneyV2;
  customAttributes: Array<Attribute>;
  discountAllocations: Array<SubscriptionDiscountAllocation>;
  id: Scalars['ID']['output'];
  image?: Maybe<Image>;
  lineDiscountedPrice: MoneyV2;
  name: Scalars['String']['output'];
  onlineStoreUrl?: Maybe<Scalars['URL']['output']>;
  quantity: Scalars['Int']['output'];
  requiresShipping: Scalars['Boolean']['output'];
  sku?: Maybe<Scalars['String']['output']>;
  taxable: Scalars['Boolean']['output'];
  title: Scalars['String']['output'];
  variantImage?: Maybe<Image>;
  variantTitle?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionLineConnection = {
  __typename?: 'SubscriptionLineConnection';
  edges: Array<SubscriptionLineEdge>;
  nodes: Array<SubscriptionLine>;
  pageInfo: PageInfo;
};

export type SubscriptionLineEdge = {
  __typename?: 'SubscriptionLineEdge';
  cursor: Scalars['String']['output'];
  node: SubscriptionLine;
};

export type SubscriptionLocalDeliveryOption = {
  __typename?: 'SubscriptionLocalDeliveryOption';
  code: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  phoneRequired: Scalars['Boolean']['output'];
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  price: MoneyV2;
  title: Scalars['String']['output'];
};

export type SubscriptionMailingAddress = {
  __typename?: 'SubscriptionMailingAddress';
  address1?: Maybe<Scalars['String']['output']>;
  address2?: Maybe<Scalars['String']['output']>;
  city?: Maybe<Scalars['String']['output']>;
  company?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  countryCode?: Maybe<CountryCode>;
  firstName?: Maybe<Scalars['String']['output']>;
  lastName?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  phone?: Maybe<Scalars['String']['output']>;
  province?: Maybe<Scalars['String']['output']>;
  provinceCode?: Maybe<Scalars['String']['output']>;
  zip?: Maybe<Scalars['String']['output']>;
};

export type SubscriptionMonthDayAnchor = {
  __typename?: 'SubscriptionMonthDayAnchor';
  dayOfMonth: Scalars['Int']['output'];
};

export type SubscriptionPickupOption = {
  __typename?: 'SubscriptionPickupOption';
  code: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  locationId: Scalars['ID']['output'];
  phoneRequired: Scalars['Boolean']['output'];
  pickupAddress: PickupAddress;
  pickupTime: Scalars['String']['output'];
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  price: MoneyV2;
  title: Scalars['String']['output'];
};

export type SubscriptionShippingOption = {
  __typename?: 'SubscriptionShippingOption';
  code: Scalars['String']['output'];
  description?: Maybe<Scalars['String']['output']>;
  phoneRequired: Scalars['Boolean']['output'];
  presentmentTitle?: Maybe<Scalars['String']['output']>;
  price: MoneyV2;
  title: Scalars['String']['output'];
};

export type SubscriptionWeekDayAnchor = {
  __typename?: 'SubscriptionWeekDayAnchor';
  dayOfWeek: Scalars['Int']['output'];
};

export type SubscriptionYearDayAnchor = {
  __typename?: 'SubscriptionYearDayAnchor';
  dayOfMonth: Scalars['Int']['output'];
  month: Scalars['Int']['output'];
};

export type TaxLine = Node & {
  __typename?: 'TaxLine';
  channelLiable: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
  priceSet: MoneyV2;
  rate?: Maybe<Scalars['Float']['output']>;
  ratePercentage?: Maybe<Scalars['Float']['output']>;
  source?: Maybe<Scalars['String']['output']>;
  title: Scalars['String']['output'];
};

export type TipSale = Node & Sale & {
  __typename?: 'TipSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type TrackingInformation = {
  __typename?: 'TrackingInformation';
  company?: Maybe<Scalars['String']['output']>;
  number?: Maybe<Scalars['String']['output']>;
  url?: Maybe<Scalars['URL']['output']>;
};

export type TransactionSortKeys =
  | 'CREATED_AT'
  | 'EXPIRES_AT';

export type TransactionTypeDetails = {
  __typename?: 'TransactionTypeDetails';
  message?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
};

export type UnitPrice = {
  __typename?: 'UnitPrice';
  measurement: UnitPriceMeasurement;
  price: MoneyV2;
};

export type UnitPriceMeasurement = {
  __typename?: 'UnitPriceMeasurement';
  referenceUnit: UnitPriceMeasurementUnit;
  referenceValue: Scalars['Int']['output'];
};

export type UnitPriceMeasurementUnit =
  | 'CL'
  | 'CM'
  | 'FLOZ'
  | 'FT'
  | 'FT2'
  | 'G'
  | 'GAL'
  | 'IN'
  | 'ITEM'
  | 'KG'
  | 'L'
  | 'LB'
  | 'M'
  | 'M2'
  | 'M3'
  | 'MG'
  | 'ML'
  | 'MM'
  | 'OZ'
  | 'PT'
  | 'QT'
  | 'UNKNOWN'
  | 'YD';

export type UnknownSale = Node & Sale & {
  __typename?: 'UnknownSale';
  actionType: SaleActionType;
  id: Scalars['ID']['output'];
  lineType: SaleLineType;
  quantity?: Maybe<Scalars['Int']['output']>;
  taxes: Array<SaleTax>;
  totalAmount: MoneyV2;
  totalDiscountAmountAfterTaxes: MoneyV2;
  totalDiscountAmountBeforeTaxes: MoneyV2;
  totalTaxAmount: MoneyV2;
};

export type UnverifiedReturnLineItem = Node & ReturnLineItemType & {
  __typename?: 'UnverifiedReturnLineItem';
  id: Scalars['ID']['output'];
  lineItem: LineItem;
  quantity: Scalars['Int']['output'];
  /** @deprecated Use `returnReasonDefinition` instead. This field will be removed in the future. */
  returnReason: ReturnReason;
  returnReasonDefinition?: Maybe<ReturnReasonDefinition>;
};

export type UserErrorsCustomerAddressUserErrors = DisplayableError & {
  __typename?: 'UserErrorsCustomerAddressUserErrors';
  code?: Maybe<UserErrorsCustomerAddressUserErrorsCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type UserErrorsCustomerAddressUserErrorsCode =
  | 'ADDRESS1_MISSING'
  | 'ADDRESS_ARGUMENT_EMPTY'
  | 'ADDRESS_ID_DOES_NOT_EXIST'
  | 'CONTAINS_HTML_TAGS'
  | 'COUNTRY_NOT_EXIST'
  | 'CUSTOMER_ADDRESS_ALREADY_EXISTS'
  | 'DELETING_CUSTOMER_DEFAULT_ADDRESS_NOT_ALLOWED'
  | 'DEMOTING_CUSTOMER_DEFAULT_ADDRESS_NOT_ALLOWED'
  | 'INVALID'
  | 'INVALID_FOR_COUNTRY'
  | 'INVALID_FOR_COUNTRY_AND_PROVINCE'
  | 'INVALID_TERRITORY_CODE'
  | 'PHONE_NUMBER_NOT_VALID'
  | 'REQUIRED'
  | 'TERRITORY_CODE_MISSING'
  | 'TOO_LONG'
  | 'ZONE_CODE_MISSING';

export type UserErrorsCustomerEmailMarketingUserErrors = DisplayableError & {
  __typename?: 'UserErrorsCustomerEmailMarketingUserErrors';
  code?: Maybe<UserErrorsCustomerEmailMarketingUserErrorsCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type UserErrorsCustomerEmailMarketingUserErrorsCode =
  | 'CUSTOMER_ALREADY_SUBSCRIBED'
  | 'EMAIL_ADDRESS_NOT_FOUND'
  | 'FAILED_TO_SUBSCRIBE'
  | 'FAILED_TO_UNSUBSCRIBE';

export type UserErrorsCustomerMarketingConsentError = DisplayableError & {
  __typename?: 'UserErrorsCustomerMarketingConsentError';
  code?: Maybe<UserErrorsCustomerMarketingConsentErrorCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type UserErrorsCustomerMarketingConsentErrorCode =
  | 'FAILED'
  | 'PHONE_NUMBER_REQUIRED';

export type UserErrorsCustomerUserErrors = DisplayableError & {
  __typename?: 'UserErrorsCustomerUserErrors';
  code?: Maybe<UserErrorsCustomerUserErrorsCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type UserErrorsCustomerUserErrorsCode =
  | 'CONTAINS_HTML_TAGS'
  | 'CONTAINS_URL'
  | 'CUSTOMER_DOES_NOT_EXIST'
  | 'CUSTOMER_INPUT_ARGUMENT_EMPTY'
  | 'INVALID'
  | 'TOO_LONG';

export type UserErrorsStorefrontCustomerAccessTokenCreateUserErrors = DisplayableError & {
  __typename?: 'UserErrorsStorefrontCustomerAccessTokenCreateUserErrors';
  code?: Maybe<UserErrorsStorefrontCustomerAccessTokenCreateUserErrorsCode>;
  field?: Maybe<Array<Scalars['String']['output']>>;
  message: Scalars['String']['output'];
};

export type UserErrorsStorefrontCustomerAccessTokenCreateUserErrorsCode =
  | 'CUSTOMER_DOES_NOT_EXIST';

export type Video = Media & {
  __typename?: 'Video';
  alt?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  mediaContentType: MediaContentType;
  previewImage?: Maybe<Image>;
  sources: Array<VideoSource>;
};

export type VideoSource = {
  __typename?: 'VideoSource';
  format: Scalars['String']['output'];
  height: Scalars['Int']['output'];
  mimeType: Scalars['String']['output'];
  url: Scalars['String']['output'];
  width: Scalars['Int']['output'];
};

export type Weight = {
  __typename?: 'Weight';
  unit: WeightUnit;
  value: Scalars['Float']['output'];
};

export type WeightUnit =
  | 'GRAMS'
  | 'KILOGRAMS'
  | 'OUNCES'
  | 'POUNDS';
